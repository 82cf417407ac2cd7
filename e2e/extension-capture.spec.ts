import { createApiKey } from "@catalog/db";
import { test, expect } from "./support/extension.js";
import { apiAs } from "./support/actions.js";
import { image, pairExtension } from "./support/extension-actions.js";

/**
 * A shop whose product page is rendered in the browser: the HTML its server sends has no product
 * in it, only a script that builds the heading, the price and the JSON-LD once it runs.
 */
const scriptBuiltProductPage = (imageUrls: string[]) => `<!doctype html>
<html><head><title>Loading…</title></head>
<body><div id="app">Loading…</div>
<script>
  const product = { name: "Glazed teapot", sku: "TEA-GLZ-1", price: "42.00", currency: "EUR", brand: "Kiln & Co", images: ${JSON.stringify(imageUrls)} };
  setTimeout(() => {
    document.title = product.name + " | Kiln & Co";
    const data = document.createElement("script");
    data.type = "application/ld+json";
    data.textContent = JSON.stringify({
      "@context": "https://schema.org", "@type": "Product", name: product.name, sku: product.sku, image: product.images,
      brand: { "@type": "Brand", name: product.brand },
      offers: { "@type": "Offer", price: product.price, priceCurrency: product.currency, availability: "https://schema.org/InStock" },
    });
    document.head.append(data);
    document.getElementById("app").innerHTML = "<h1>" + product.name + "</h1><p>€42.00</p>";
  }, 50);
</script></body></html>`;

test("capture a product the page builds with JavaScript: preview, correct a field, keep one image, save; the catalog has it, and the page says so next time", async ({
  extension,
  db,
  org,
  stack,
  playwright,
}) => {
  const pages: Record<string, { body: string | Buffer; contentType?: string }> = {
    "/img/teapot-front.png": image,
    "/img/teapot-side.png": image,
  };
  const site = await extension.serve(pages);
  pages["/products/glazed-teapot"] = {
    body: scriptBuiltProductPage([
      site.url("/img/teapot-front.png"),
      site.url("/img/teapot-side.png"),
    ]),
  };
  const { key } = await createApiKey(db, org.org.id, "Shop laptop");
  await pairExtension(extension, stack.E2E_BASE_URL, key, org.org.name);
  const shop = await extension.newPage();
  await shop.goto(site.url("/products/glazed-teapot"));
  await expect(shop.getByRole("heading", { name: "Glazed teapot" })).toBeVisible();

  const popup = await extension.clickButtonOn(shop);
  await expect(popup.getByRole("status").filter({ hasText: "New product." })).toBeVisible({
    timeout: 20_000,
  });
  await expect(popup.getByLabel("Title")).toHaveValue("Glazed teapot");
  await expect(popup.getByLabel("Price")).toHaveValue("42.00");
  await expect(popup.getByLabel("Currency")).toHaveValue("EUR");
  await expect(popup.getByLabel("SKU")).toHaveValue("TEA-GLZ-1");
  await expect(popup.getByLabel("Availability")).toHaveValue("InStock");
  await expect(popup.getByLabel("Brand")).toHaveValue("Kiln & Co");
  await expect(popup.getByText("2 of 2 kept")).toBeVisible();

  // Correct the title, leave the side view out.
  await popup.getByLabel("Title").fill("Glazed teapot, celadon");
  await expect(popup.locator("label[for=title]")).toContainText("edited");
  await popup.getByLabel("Keep image 2").uncheck();
  await expect(popup.getByText("1 of 2 kept")).toBeVisible();
  await popup.getByRole("button", { name: "Add to catalog" }).click();
  const saved = popup.getByRole("status").filter({ hasText: "Added to your catalog" });
  await expect(saved).toContainText("Glazed teapot, celadon");

  // The catalog has what the popup showed, with the edit, from the extension.
  const api = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
  const found = (await (await api.get("/api/products", { params: { q: "TEA-GLZ-1" } })).json()) as {
    items: (Record<string, unknown> & { id: string })[];
  };
  expect(found.items).toHaveLength(1);
  expect(found.items[0]).toMatchObject({
    title: "Glazed teapot, celadon",
    sku: "TEA-GLZ-1",
    source: "extension",
    brand: "Kiln & Co",
    availability: "InStock",
    price: { amount: "42.00", currency: "EUR" },
    images: [site.url("/img/teapot-front.png")],
    sourceUrl: site.url("/products/glazed-teapot"),
  });
  await expect(popup.getByRole("link", { name: "Open it in the dashboard" })).toHaveAttribute(
    "href",
    `${stack.E2E_BASE_URL}/products/${found.items[0]!.id}`,
  );
  // Read from the browser's copy: the service never fetched the page itself.
  expect(site.hits.filter((path) => path === "/products/glazed-teapot")).toHaveLength(1);

  // Next time on this page, the popup says it is in the catalog, and what saving would change.
  const next = await extension.clickButtonOn(shop);
  const known = next.getByRole("status").filter({ hasText: "Already in your catalog" });
  await expect(known).toContainText("Glazed teapot, celadon (same SKU). Saving updates 2 fields.");
  await expect(known.getByRole("link", { name: "Glazed teapot, celadon" })).toHaveAttribute(
    "href",
    `${stack.E2E_BASE_URL}/products/${found.items[0]!.id}`,
  );
  await expect(next.getByRole("region", { name: "What saving changes" })).toContainText("Title");
  await api.dispose();
});
