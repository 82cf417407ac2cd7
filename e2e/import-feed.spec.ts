import { test, expect } from "./support/fixtures.js";
import { signIn } from "./support/actions.js";

// A Google Merchant Center RSS 2.0 feed, laid out as Google's specification shows it: two items
// of one item_group_id (the same shirt in two sizes) and a product of its own.
const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
  <channel>
    <title>Example shop</title>
    <link>https://shop.example</link>
    <description>Products</description>
    <item>
      <g:id>SHIRT-S</g:id>
      <g:title>Linen shirt - S</g:title>
      <g:description>A linen shirt.</g:description>
      <g:link>https://shop.example/shirt?size=s</g:link>
      <g:price>39.00 EUR</g:price>
      <g:availability>in_stock</g:availability>
      <g:quantity>4</g:quantity>
      <g:item_group_id>SHIRT</g:item_group_id>
      <g:size>S</g:size>
    </item>
    <item>
      <g:id>SHIRT-M</g:id>
      <g:title>Linen shirt - M</g:title>
      <g:description>A linen shirt.</g:description>
      <g:link>https://shop.example/shirt?size=m</g:link>
      <g:price>41.00 EUR</g:price>
      <g:availability>in_stock</g:availability>
      <g:quantity>6</g:quantity>
      <g:item_group_id>SHIRT</g:item_group_id>
      <g:size>M</g:size>
    </item>
    <item>
      <g:id>SCARF-1</g:id>
      <g:title>Wool scarf</g:title>
      <g:description>A wool scarf.</g:description>
      <g:link>https://shop.example/scarf</g:link>
      <g:price>25.00 EUR</g:price>
      <g:sale_price>19.50 EUR</g:sale_price>
      <g:availability>out_of_stock</g:availability>
    </item>
  </channel>
</rss>
`;

test("a Google Merchant Center feed: its item group previewed as one product with its sizes, and stored", async ({
  page,
  org,
  db,
}) => {
  await signIn(page, org.member, "/imports");
  await page.getByRole("tab", { name: "Spreadsheet or file" }).click();
  await page.getByLabel("Product file").setInputFiles({
    name: "google-feed.xml",
    mimeType: "application/xml",
    buffer: Buffer.from(FEED),
  });
  await page.getByRole("button", { name: "Preview file" }).click();

  await expect(page.getByRole("heading", { name: "google-feed.xml", level: 1 })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  const rows = page.getByRole("row");
  await expect(rows.filter({ hasText: "Linen shirt" })).toContainText("39.00 EUR");
  await expect(rows.filter({ hasText: "Wool scarf" })).toContainText("19.50 EUR");
  const storeBar = page.getByRole("region", { name: "Store the preview" });
  await expect(storeBar).toContainText("2 of 2 new or updated products will be stored");
  await page.screenshot({
    path: "artifacts/screenshots/import-feed-preview-1280.png",
    fullPage: true,
  });
  await storeBar.getByRole("button", { name: "Store 2 products" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stored." })).toContainText("2 created");

  // The catalog holds the shirt once, with both sizes and their stock.
  const shirt = await db.product.findFirstOrThrow({
    where: { orgId: org.org.id, sku: "SHIRT" },
  });
  expect(shirt.title).toBe("Linen shirt");
  const variants = shirt.variants as { sku: string; quantity: number | null }[];
  expect(variants.map((v) => [v.sku, v.quantity]).sort()).toEqual([
    ["SHIRT-M", 6],
    ["SHIRT-S", 4],
  ]);
  expect(await db.product.count({ where: { orgId: org.org.id } })).toBe(2);
});
