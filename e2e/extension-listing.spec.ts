import { createApiKey } from "@catalog/db";
import { makeProduct, type FixturePage } from "@catalog/testing";
import { test, expect } from "./support/extension.js";
import { apiAs } from "./support/actions.js";
import { image, pairExtension } from "./support/extension-actions.js";

const MUGS = [
  { slug: "speckled-mug", name: "Speckled mug", sku: "MUG-SPK-1", price: "18.00" },
  { slug: "ash-glaze-mug", name: "Ash glaze mug", sku: "MUG-ASH-1", price: "21.00" },
  { slug: "tall-latte-mug", name: "Tall latte mug", sku: "MUG-TLT-1", price: "19.50" },
  { slug: "stoneware-cup", name: "Stoneware cup", sku: "MUG-CUP-1", price: "14.00" },
];

const productPage = (mug: (typeof MUGS)[number]): FixturePage => ({
  body: `<!doctype html><html><head><title>${mug.name} | Kiln & Co</title>
<script type="application/ld+json">${JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: mug.name,
    sku: mug.sku,
    offers: {
      "@type": "Offer",
      price: mug.price,
      priceCurrency: "EUR",
      availability: "https://schema.org/InStock",
    },
  })}</script></head><body><h1>${mug.name}</h1><p>€${mug.price}</p></body></html>`,
});

/**
 * A category page as shops write them: a grid of product cards, each a link with a picture, a name
 * and a price.
 */
const categoryPage = (
  url: (path: string) => string,
) => `<!doctype html><html><head><title>Mugs | Kiln & Co</title></head>
<body><header><nav><a href="/">Home</a> <a href="/shop/mugs">Mugs</a> <a href="/about">About us</a></nav></header>
<main><h1>Mugs</h1><ul class="product-grid">
${MUGS.map(
  (
    m,
  ) => `<li class="product-card"><a href="${url(`/products/${m.slug}`)}"><img src="${url(`/img/${m.slug}.png`)}" alt=""><h2 class="product-card__title">${m.name}</h2></a>
<span class="price">€${m.price}</span></li>`,
).join("\n")}
</ul><nav class="pagination"><a href="/shop/mugs?page=2">Next page</a></nav></main>
<footer><a href="/contact">Contact</a> <a href="/shipping">Shipping</a></footer></body></html>`;

test("a category page: the products it lists, which are in the catalog already, and two imported in one go", async ({
  extension,
  db,
  org,
  stack,
  playwright,
}) => {
  const pages: Record<string, FixturePage> = {};
  const site = await extension.serve(pages);
  for (const mug of MUGS) {
    pages[`/products/${mug.slug}`] = productPage(mug);
    pages[`/img/${mug.slug}.png`] = image;
  }
  pages["/shop/mugs"] = { body: categoryPage(site.url) };
  // One of them was imported before, from its page.
  const known = await makeProduct(db, org.org.id, {
    title: "Ash glaze mug",
    sku: "MUG-ASH-1",
    sourceUrl: site.url("/products/ash-glaze-mug"),
  });
  const { key } = await createApiKey(db, org.org.id, "Shop laptop");
  await pairExtension(extension, stack.E2E_BASE_URL, key, org.org.name);
  const shop = await extension.newPage();
  await shop.goto(site.url("/shop/mugs"));

  const popup = await extension.clickButtonOn(shop);
  await expect(popup.getByRole("heading", { name: "4 products on this page" })).toBeVisible({
    timeout: 20_000,
  });
  await expect(popup.getByText("up to 50 at a time", { exact: false })).toBeVisible();
  const list = popup.getByRole("list", { name: "Products on this page" });
  await expect(list.getByRole("listitem")).toHaveCount(4);
  const row = (name: string) => list.getByRole("listitem").filter({ hasText: name });
  await expect(row("Speckled mug")).toContainText("€18.00");
  const inCatalog = row("Ash glaze mug").getByRole("link", { name: "In catalog" });
  await expect(inCatalog).toHaveAttribute("href", `${stack.E2E_BASE_URL}/products/${known.id}`);
  // What is not in the catalog yet is chosen to begin with.
  await expect(row("Ash glaze mug").getByRole("checkbox")).not.toBeChecked();
  await expect(row("Speckled mug").getByRole("checkbox")).toBeChecked();

  // Two of them: leave the cup out.
  await row("Stoneware cup").getByRole("checkbox").uncheck();
  await popup.getByRole("button", { name: "Read 2 products" }).click();
  await expect(popup.getByRole("heading", { name: "Read: nothing stored yet" })).toBeVisible({
    timeout: 30_000,
  });
  const outcomes = popup.getByRole("list", { name: "Each product" });
  await expect(outcomes.getByRole("listitem")).toHaveCount(2);
  await expect(outcomes.getByRole("listitem").filter({ hasText: "Speckled mug" })).toContainText(
    "New",
  );
  await expect(outcomes.getByRole("listitem").filter({ hasText: "Tall latte mug" })).toContainText(
    "New",
  );
  await popup.getByRole("button", { name: "Store 2 products" }).click();
  await expect(popup.getByRole("heading", { name: "Stored", exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(popup.getByRole("status")).toContainText("2 created, 0 updated, 0 unchanged.");
  await expect(outcomes.getByRole("listitem").filter({ hasText: "Speckled mug" })).toContainText(
    "Created",
  );

  const api = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
  const titles = (
    (await (await api.get("/api/products", { params: { q: "mug" } })).json()) as {
      items: { title: string; source: string }[];
    }
  ).items
    .map((p) => `${p.title} (${p.source})`)
    .sort();
  expect(titles).toEqual([
    "Ash glaze mug (api)",
    "Speckled mug (scrape)",
    "Tall latte mug (scrape)",
  ]);
  await api.dispose();
});
