import { test, expect, type Page } from "./support/fixtures.js";
import { addProducts, setStandinFault, signIn, standinStore } from "./support/actions.js";

/** From the catalog: search, tick every product on the page, open the publish screen for them. */
async function selectAndOpenPublish(page: Page, search: string, count: number): Promise<void> {
  await page.getByLabel("Search by title or SKU").fill(search);
  await expect(
    page.getByText(`${count} matching product${count === 1 ? "" : "s"}`, { exact: true }),
  ).toBeVisible();
  await page.getByRole("checkbox", { name: "Select every product on this page" }).check();
  const selection = page.getByRole("region", { name: "Selection" });
  await expect(selection).toContainText(`${count} selected`);
  await selection.getByRole("link", { name: "Publish selected" }).click();
  await expect(
    page.getByRole("heading", {
      name: `Publish ${count} product${count === 1 ? "" : "s"}`,
      level: 1,
    }),
  ).toBeVisible();
}

test("publish 20 products to two stores and watch the run finish", async ({
  page,
  org,
  db,
  stack,
  shop,
}) => {
  const products = await addProducts(db, org.org.id, 20, "Field notebook");
  const harbour = await shop("Harbour store");
  const quay = await shop("Quay store");

  await signIn(page, org.member, "/products");
  await selectAndOpenPublish(page, "Field notebook", 20);
  await page.getByLabel("Harbour store").check();
  await page.getByLabel("Quay store").check();
  await page.getByRole("button", { name: "Publish to 2 stores" }).click();

  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]+$/);
  await expect(
    page.getByRole("heading", {
      name: /^Field notebook \d+ and 19 more to Harbour store and Quay store$/,
      level: 1,
    }),
  ).toBeVisible();
  await expect(page.getByText("Finished", { exact: true })).toBeVisible({ timeout: 45_000 });
  const progress = page.getByRole("region", { name: "Progress" });
  await expect(progress).toContainText("40 listings");
  await expect(progress).toContainText(/40\s*Published/);
  const matrix = page.getByRole("region", { name: /Listings per product and store/ });
  await expect(matrix.getByRole("row").filter({ hasText: "Field notebook" })).toHaveCount(20);
  await expect(matrix.getByText("Published", { exact: true })).toHaveCount(40);

  for (const store of [harbour.store, quay.store]) {
    const listed = await standinStore(stack.E2E_STANDIN_URL, store);
    expect(listed.listings.map((l) => l.sku).sort()).toEqual(products.map((p) => p.sku).sort());
  }

  // The catalog shows each product's listing on each store.
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Catalog" })
    .click();
  const productRows = page.getByRole("row").filter({ has: page.getByRole("link") });
  await expect(productRows).toHaveCount(20);
  for (const row of await productRows.all()) {
    await expect(row).toContainText("Harbour store: published");
    await expect(row).toContainText("Quay store: published");
  }
});

test("a store that asks to wait: the run shows the wait, then finishes", async ({
  page,
  org,
  db,
  stack,
  shop,
}) => {
  await addProducts(db, org.org.id, 3, "Wool scarf");
  const store = await shop("Busy store");
  // The store answers 429 with Retry-After: 2 until the test lifts it; a wait is not an attempt,
  // so the publishes keep waiting however long the page takes to show it.
  await setStandinFault(stack.E2E_STANDIN_URL, store.store, {
    kind: "throttle",
    retryAfterSeconds: 2,
  });

  await signIn(page, org.member, "/products");
  await selectAndOpenPublish(page, "Wool scarf", 3);
  await page.getByLabel("Busy store").check();
  await page.getByRole("button", { name: "Publish to 1 store" }).click();
  await expect(
    page.getByRole("heading", { name: /^Wool scarf \d and 2 more to Busy store$/, level: 1 }),
  ).toBeVisible();

  const wait = page
    .getByRole("status")
    .filter({ hasText: /Busy store:.*asked us to wait.*publishing resumes in/ });
  await expect(wait).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("In progress", { exact: true })).toBeVisible();
  expect((await standinStore(stack.E2E_STANDIN_URL, store.store)).listings).toEqual([]);

  await setStandinFault(stack.E2E_STANDIN_URL, store.store, null);
  await expect(page.getByText("Finished", { exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole("region", { name: "Progress" })).toContainText(/3\s*Published/);
  await expect(wait).toHaveCount(0);
  expect((await standinStore(stack.E2E_STANDIN_URL, store.store)).listings).toHaveLength(3);
});

test("a product that fails to publish is fixed and retried in the same run", async ({
  page,
  org,
  db,
  stack,
  shop,
}) => {
  await addProducts(db, org.org.id, 2, "Birch tray");
  // One tray has no price: the store refuses it.
  await addProducts(db, org.org.id, 1, "Birch tray unpriced", { price: null });
  const store = await shop("Market store");

  await signIn(page, org.member, "/products");
  await selectAndOpenPublish(page, "Birch tray", 3);
  await page.getByLabel("Market store").check();
  await page.getByRole("button", { name: "Publish to 1 store" }).click();
  await expect(
    page.getByRole("heading", { name: /^Birch tray .*\d and 2 more to Market store$/, level: 1 }),
  ).toBeVisible();
  await expect(page.getByText("Finished with failures", { exact: true })).toBeVisible({
    timeout: 45_000,
  });
  const runUrl = page.url();

  const failures = page.getByRole("region", { name: "What failed, and how to fix it" });
  await expect(failures).toContainText("Birch tray unpriced 1 has no price");
  // Nothing a retry alone would change: no retry until the product is fixed.
  await expect(page.getByRole("button", { name: /^Retry/ })).toHaveCount(0);
  await failures.getByRole("link", { name: "Edit Birch tray unpriced 1" }).click();

  // The fix: a price, in the edit form the link opened.
  await expect(
    page.getByRole("heading", { name: "Birch tray unpriced 1", level: 1 }),
  ).toBeVisible();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Price").fill("18.00");
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);

  // Back to the run: retry the failed one.
  await page.goBack();
  await expect(page).toHaveURL(runUrl);
  await page.getByRole("button", { name: "Retry 1 failed" }).click();
  await expect(page.getByText("Finished", { exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole("region", { name: "Progress" })).toContainText(/3\s*Published/);
  await expect(failures).toHaveCount(0);
  const listed = await standinStore(stack.E2E_STANDIN_URL, store.store);
  expect(listed.listings.map((l) => l.title).sort()).toEqual([
    "Birch tray 1",
    "Birch tray 2",
    "Birch tray unpriced 1",
  ]);
});
