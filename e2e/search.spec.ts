import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";

test("search the catalog by title and SKU, across pages", async ({ page, org, db }) => {
  await addProducts(db, org.org.id, 27, "Oak shelf");
  const lamps = await addProducts(db, org.org.id, 3, "Brass lamp");
  await signIn(page, org.member, "/products");

  const search = page.getByLabel("Search by title or SKU");
  const productRows = page.getByRole("row").filter({ has: page.getByRole("link") });
  await expect(page.getByText("30 products", { exact: true })).toBeVisible();
  await expect(productRows).toHaveCount(25);

  // Titles, in any case.
  await search.fill("BRASS");
  await expect(page).toHaveURL(/\?q=BRASS$/);
  await expect(page.getByText("3 matching products", { exact: true })).toBeVisible();
  await expect(productRows).toHaveCount(3);
  for (const lamp of lamps)
    await expect(productRows.filter({ hasText: lamp.title })).toContainText(lamp.sku);

  // A SKU: exactly that product.
  await search.fill(lamps[1]!.sku);
  await expect(page.getByText("1 matching product", { exact: true })).toBeVisible();
  await expect(productRows).toHaveCount(1);
  await expect(productRows).toContainText(lamps[1]!.title);

  // Many matches: pages, kept in the URL.
  await search.fill("oak");
  await expect(page.getByText("27 matching products", { exact: true })).toBeVisible();
  await expect(productRows).toHaveCount(25);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/\?q=oak&page=2$/);
  await expect(productRows).toHaveCount(2);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText(
    "27 products · page 2 of 2",
  );
  await expect(productRows.filter({ hasText: "Brass" })).toHaveCount(0);

  // Nothing matches: said so, with a way back.
  await search.fill("velvet");
  await expect(page.getByRole("heading", { name: "No products match “velvet”" })).toBeVisible();
  await page.getByRole("button", { name: "Clear the search" }).click();
  await expect(search).toHaveValue("");
  await expect(page.getByText("30 products", { exact: true })).toBeVisible();
});
