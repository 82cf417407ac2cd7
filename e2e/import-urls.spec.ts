import { startFixtureServer } from "@catalog/testing";
import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";

/** A shop's product page as such pages are written: schema.org Product in JSON-LD. */
const productPage = (name: string, sku: string, price: string) => ({
  body: `<!doctype html><html><head><title>${name} | Harbour Goods</title>
<script type="application/ld+json">${JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name,
    sku,
    description: `${name}, made by hand.`,
    offers: {
      "@type": "Offer",
      price,
      priceCurrency: "GBP",
      availability: "https://schema.org/InStock",
    },
  })}</script></head><body><h1>${name}</h1><p>£${price}</p></body></html>`,
});

test("import product pages by their addresses from a shop's site", async ({ page, org }) => {
  const site = await startFixtureServer({
    "/products/rope-basket": productPage("Rope basket", "HG-ROPE-1", "38.00"),
    "/products/cork-coaster": productPage("Cork coaster", "HG-CORK-4", "6.50"),
    "/products/tin-lantern": productPage("Tin lantern", "HG-TIN-2", "24.00"),
  });
  try {
    await signIn(page, org.member, "/imports");
    await expect(page.getByRole("tab", { name: "Web pages", selected: true })).toBeVisible();
    const addresses = page.getByLabel("Product page addresses, one per line");
    await addresses.fill(
      [
        site.url("/products/rope-basket"),
        site.url("/products/cork-coaster"),
        site.url("/products/tin-lantern"),
        site.url("/products/sold-out-kettle"),
      ].join("\n"),
    );
    await page.getByRole("button", { name: "Preview 4 pages" }).click();

    await expect(page).toHaveURL(/\/imports\/[0-9a-f-]+/);
    await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
      timeout: 45_000,
    });
    const rows = page.getByRole("row");
    for (const [name, price] of [
      ["Rope basket", "38.00 GBP"],
      ["Cork coaster", "6.50 GBP"],
      ["Tin lantern", "24.00 GBP"],
    ] as const) {
      const row = rows.filter({ hasText: name });
      await expect(row.getByText("New", { exact: true })).toBeVisible();
      await expect(row).toContainText(price);
    }
    // A page that is not there is an error on its own row, not a failed import.
    const missing = rows.filter({ hasText: "/products/sold-out-kettle" });
    await expect(missing.getByText("Error", { exact: true })).toBeVisible();
    await expect(missing).toContainText("404");
    expect(site.hits.sort()).toEqual([
      "/products/cork-coaster",
      "/products/rope-basket",
      "/products/sold-out-kettle",
      "/products/tin-lantern",
    ]);

    const storeBar = page.getByRole("region", { name: "Store the preview" });
    await storeBar.getByRole("button", { name: "Store 3 products" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Stored." })).toContainText(
      "3 created, 0 updated, 0 unchanged, 0 left out.",
    );
    // Stored from the preview: the site is not asked again.
    expect(site.hits).toHaveLength(4);

    await page.getByRole("link", { name: "Open the catalog" }).click();
    const productRows = page.getByRole("row").filter({ has: page.getByRole("link") });
    await expect(productRows).toHaveCount(3);
    await productRows.getByRole("link", { name: "Tin lantern" }).click();
    await expect(page.getByRole("heading", { name: "Tin lantern", level: 1 })).toBeVisible();
    await expect(page.getByText("Imported from a web page")).toBeVisible();
    await expect(page.getByRole("link", { name: site.url("/products/tin-lantern") })).toBeVisible();
  } finally {
    await site.close();
  }
});

test("discard a preview: nothing is stored, and the import says so", async ({ page, org, db }) => {
  const site = await startFixtureServer({
    "/products/oak-stool": productPage("Oak stool", "HG-OAK-7", "89.00"),
  });
  try {
    await signIn(page, org.member, "/imports");
    await page
      .getByLabel("Product page addresses, one per line")
      .fill(site.url("/products/oak-stool"));
    await page.getByRole("button", { name: "Preview 1 page" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
      timeout: 45_000,
    });

    await page.getByRole("button", { name: "Discard", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Discard this preview?" });
    await dialog.getByRole("button", { name: "Discard preview" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: "You discarded this preview" })).toBeVisible();
    await expect(
      page.getByRole("status").filter({ hasText: /Discarded “.+”: nothing was stored/ }),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: "Store the preview" })).toHaveCount(0);
    expect(await db.product.count({ where: { orgId: org.org.id } })).toBe(0);
  } finally {
    await site.close();
  }
});
