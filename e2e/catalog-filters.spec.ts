import { test, expect, type Page } from "./support/fixtures.js";
import { SCREENSHOTS } from "./support/paths.js";
import { addProducts, apiAs, publishThroughApi, signIn } from "./support/actions.js";

const productRows = (page: Page) => page.getByRole("row").filter({ has: page.getByRole("link") });

// Issue 34, item 8: "failed on eBay" in one click from Destinations, then narrowed and ordered by
// listing state, store, availability and stock, the choice kept in the URL through reload and Back.
test("the catalog filtered to what failed on one store, from its Failed count, kept through reload and Back", async ({
  page,
  org,
  db,
  stack,
  playwright,
  shop,
}) => {
  // Two stores. Products without a price fail to publish (the stand-in needs one); priced ones list.
  const ebay = await shop("eBay store");
  const web = await shop("Web shop");
  const priced = await addProducts(db, org.org.id, 2, "Walnut tray", { quantity: 30 });
  const unpriced = await addProducts(db, org.org.id, 3, "Clay vase", { price: null, quantity: 2 });
  const idle = await addProducts(db, org.org.id, 2, "Cork mat", {
    quantity: 0,
    availability: "OutOfStock",
  });
  const api = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
  await publishThroughApi(
    api,
    [...priced, ...unpriced].map((p) => p.id),
    [ebay.id],
  );
  await publishThroughApi(api, [priced[0]!.id, unpriced[0]!.id], [web.id]);
  await api.dispose();

  await signIn(page, org.owner, "/destinations");
  const card = page.getByRole("article").filter({ hasText: "eBay store" });
  // The count of failures on the eBay store is a link to those products.
  const failed = card.getByRole("link", {
    name: /failed: show the products that failed on eBay store/,
  });
  await expect(failed).toHaveText("3", { timeout: 15_000 });
  await failed.click();

  await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();
  await expect(page.getByText("3 matching products", { exact: true })).toBeVisible();
  await expect(productRows(page)).toHaveCount(3);
  for (const p of unpriced)
    await expect(productRows(page).filter({ hasText: p.title })).toHaveCount(1);
  await expect(page.getByLabel("Listing")).toHaveValue("failed");
  await expect(page.getByLabel("Store")).toHaveValue(ebay.id);
  await expect(page.getByLabel("Store").locator("option:checked")).toHaveText("eBay store");

  // Survives a reload.
  await page.reload();
  await expect(page.getByText("3 matching products", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Listing")).toHaveValue("failed");

  // Narrowed by store alone: what is on the web shop, any state.
  await page.getByLabel("Listing").selectOption({ label: "Any state" });
  await page.getByLabel("Store").selectOption({ label: "Web shop" });
  await expect(page.getByText("2 matching products", { exact: true })).toBeVisible();
  await expect(productRows(page).filter({ hasText: priced[0]!.title })).toHaveCount(1);
  await expect(productRows(page).filter({ hasText: unpriced[0]!.title })).toHaveCount(1);

  // Back returns to the previous choice.
  await page.goBack();
  await expect(page.getByLabel("Store")).toHaveValue(ebay.id);
  await expect(page.getByLabel("Listing")).toHaveValue("");
  await expect(page.getByText("5 matching products", { exact: true })).toBeVisible();

  // Not listed anywhere; then stock and availability, and an order.
  await page.getByLabel("Store").selectOption({ label: "Any store" });
  await page.getByLabel("Listing").selectOption({ label: "Not listed" });
  await expect(page.getByText("5 matching products", { exact: true })).toBeVisible(); // 3 failed + 2 idle
  await page.getByLabel("Stock").selectOption({ label: "Out of stock (0)" });
  await expect(page.getByText("2 matching products", { exact: true })).toBeVisible();
  await expect(productRows(page).filter({ hasText: "Cork mat" })).toHaveCount(2);
  await page.getByLabel("Listing").selectOption({ label: "Any state" });
  await page.getByLabel("Stock").selectOption({ label: "Any" });
  await page.getByLabel("Availability").selectOption({ label: "Out of stock" });
  await expect(page.getByText("2 matching products", { exact: true })).toBeVisible();
  await page.getByLabel("Availability").selectOption({ label: "Any" });
  await page.getByLabel("Sort").selectOption({ label: "Fewest in stock first" });
  await expect(page).toHaveURL(/sort=stock/);
  await expect(productRows(page).first()).toContainText("Cork mat");
  await expect(productRows(page).last()).toContainText("Walnut tray");
  await page.getByLabel("Sort").selectOption({ label: "Title, A to Z" });
  await expect(productRows(page).first()).toContainText("Clay vase 1");
  await expect(
    page.getByText(`${priced.length + unpriced.length + idle.length} products`, { exact: true }),
  ).toBeVisible();

  // Nothing matches: said so, with a way out that keeps the order.
  await page.getByLabel("Listing").selectOption({ label: "Being removed" });
  await expect(
    page.getByRole("heading", { name: "No products match these filters" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page.getByText("7 products", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/products\?sort=title$/);

  // The filters at phone width and at 1280.
  await page.getByLabel("Listing").selectOption({ label: "Failed" });
  await expect(page.getByText("3 matching products", { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/catalog-filters-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENSHOTS}/catalog-filters-390.png`, fullPage: true });
});
