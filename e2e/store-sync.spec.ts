import { test, expect } from "./support/fixtures.js";
import { addProducts, apiAs, publishThroughApi, signIn, standinStore } from "./support/actions.js";

// Automatic sync as a merchant meets it: products already live on stores follow the catalog
// without anyone publishing again.

interface StoreListing {
  sku: string | null;
  price: { amount: string };
  quantity: number | null;
  version: number;
}

async function listingsOf(standinUrl: string, store: string): Promise<StoreListing[]> {
  return (await standinStore(standinUrl, store)).listings as unknown as StoreListing[];
}

test("an import's price change reaches every store by itself", async ({
  page,
  org,
  db,
  stack,
  playwright,
  shop,
}) => {
  const products = await addProducts(db, org.org.id, 3, "Linen apron");
  const stores = [await shop("North store"), await shop("South store")];
  const api = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
  await publishThroughApi(
    api,
    products.map((p) => p.id),
    stores.map((s) => s.id),
  );
  for (const store of stores)
    await expect
      .poll(async () => (await listingsOf(stack.E2E_STANDIN_URL, store.store)).length, {
        timeout: 30_000,
      })
      .toBe(3);

  // A supplier's price list, imported as a merchant would.
  const csv = [
    "title,sku,price,currency",
    ...products.map((p) => `${p.title},${p.sku},24.50,EUR`),
  ].join("\n");
  await signIn(page, org.member, "/imports");
  await page.getByRole("tab", { name: "Spreadsheet or file" }).click();
  await page
    .getByLabel("Product file")
    .setInputFiles({ name: "aprons.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Preview file" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
    timeout: 30_000,
  });
  const storeBar = page.getByRole("region", { name: "Store the preview" });
  await storeBar.getByRole("button", { name: "Store 3 products" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stored." })).toContainText("3 updated");

  // Nobody publishes: both stores carry the new price, each listing updated once.
  for (const store of stores)
    await expect
      .poll(
        async () =>
          (await listingsOf(stack.E2E_STANDIN_URL, store.store)).map((l) => [
            l.price.amount,
            l.version,
          ]),
        { timeout: 30_000 },
      )
      .toEqual([
        ["24.50", 2],
        ["24.50", 2],
        ["24.50", 2],
      ]);

  // The product's page says so.
  await page.goto(`/products/${products[0]!.id}`);
  const listings = page.getByRole("region", { name: "Listings" });
  await expect(listings.getByText("In sync")).toHaveCount(2);
});

test("a stock edit reaches the store by itself", async ({
  page,
  org,
  db,
  stack,
  publishToNewShop,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Oak stool", { quantity: 5 });
  const { store } = await publishToNewShop([product!.id], "Corner store");
  await expect
    .poll(async () => (await listingsOf(stack.E2E_STANDIN_URL, store.store))[0]?.quantity, {
      timeout: 30_000,
    })
    .toBe(5);

  // Two sold in the shop: the merchant sets the stock to 3.
  await signIn(page, org.member, `/products/${product!.id}`);
  const listings = page.getByRole("region", { name: "Listings" });
  await expect(listings.getByText("In sync")).toBeVisible();
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Stock", { exact: true }).fill("3");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);

  // The store follows without a publish, by the cheap route (one write, no new listing), and the
  // page says the listing is in sync again.
  await expect
    .poll(async () => (await listingsOf(stack.E2E_STANDIN_URL, store.store))[0]?.quantity, {
      timeout: 30_000,
    })
    .toBe(3);
  const inspection = await standinStore(stack.E2E_STANDIN_URL, store.store);
  expect(inspection.counts.create).toBe(1);
  await expect(listings.getByText("In sync")).toBeVisible({ timeout: 15_000 });
});
