import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn, standinStore, waitForStandinListings } from "./support/actions.js";

// Delisting as a merchant meets it: a live listing unpublished from the product's page, a live
// product deleted (the confirmation names the stores), and a store's sync settings.

test("unpublish a live listing from the product's page: the listing ends on the store", async ({
  page,
  org,
  db,
  stack,
  publishToNewShop,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Tide clock");
  const { store } = await publishToNewShop([product!.id], "Harbour store");
  await waitForStandinListings(stack.E2E_STANDIN_URL, store.store, 1, 30_000);

  await signIn(page, org.member, `/products/${product!.id}`);
  const listings = page.getByRole("region", { name: "Listings" });
  const row = listings.getByRole("row").filter({ hasText: "Harbour store" });
  await expect(row.getByText("published", { exact: true })).toBeVisible({ timeout: 15_000 });
  await row.getByRole("button", { name: "Unpublish from Harbour store" }).click();
  const dialog = page.getByRole("dialog", { name: "Unpublish “Tide clock 1” from Harbour store?" });
  await expect(dialog).toContainText("The product stays in your catalog");
  await dialog.getByRole("button", { name: "Unpublish" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Ending “Tide clock 1” on Harbour store." }),
  ).toBeVisible();

  // The publish worker ends it on the store; the page follows until the listing says so.
  await expect(row.getByText("ended", { exact: true })).toBeVisible({ timeout: 30_000 });
  expect((await standinStore(stack.E2E_STANDIN_URL, store.store)).listings).toEqual([]);
});

test("deleting a live product names the stores whose listings end, and hides it at once", async ({
  page,
  org,
  db,
  stack,
  publishToNewShop,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Brass compass");
  const { store } = await publishToNewShop([product!.id], "Quay store");
  await expect
    .poll(
      async () =>
        (await db.listing.findFirst({ where: { productId: product!.id } }))?.remoteId ?? null,
      { timeout: 30_000 },
    )
    .not.toBeNull();

  await signIn(page, org.member, `/products/${product!.id}`);
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “Brass compass 1”?" });
  await expect(dialog).toContainText("Its listings on these stores will be ended:");
  await expect(dialog.getByRole("listitem")).toHaveText(["Quay store"]);
  await dialog.getByRole("button", { name: "Delete product" }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Deleted “Brass compass 1”; ending its listing on the stores" }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByRole("link", { name: "Brass compass 1" })).toHaveCount(0);

  // The store no longer sells it, and once nothing of it is live the product's row goes too.
  await expect
    .poll(async () => (await standinStore(stack.E2E_STANDIN_URL, store.store)).listings, {
      timeout: 30_000,
    })
    .toEqual([]);
  await expect
    .poll(async () => db.product.count({ where: { id: product!.id } }), { timeout: 15_000 })
    .toBe(0);
});

test("an owner turns automatic sync off and chooses to end out-of-stock listings; a reload keeps both", async ({
  page,
  org,
  shop,
}) => {
  await shop("Pier shop");

  await signIn(page, org.owner, "/destinations");
  const card = page.getByRole("article", { name: "Pier shop" });
  const autoSync = card.getByRole("checkbox", { name: "Keep listings in sync automatically" });
  const endIt = card.getByRole("radio", {
    name: "End it, and list it again when stock returns",
  });
  await expect(autoSync).toBeChecked();
  await expect(card.getByRole("radio", { name: "Keep the listing, at 0" })).toBeChecked();

  await autoSync.uncheck();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "“Pier shop” no longer updates its listings by itself" }),
  ).toBeVisible();
  await endIt.check();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "out-of-stock listings are ended and listed again" }),
  ).toBeVisible();

  await page.reload();
  await expect(autoSync).not.toBeChecked();
  await expect(endIt).toBeChecked();
});

test("members see the sync settings but cannot change them", async ({ page, org, shop }) => {
  await shop("Dock shop");
  await signIn(page, org.member, "/destinations");
  const card = page.getByRole("article", { name: "Dock shop" });
  await expect(
    card.getByRole("checkbox", { name: "Keep listings in sync automatically" }),
  ).toBeDisabled();
  await expect(card.getByText("Only owners change these.")).toBeVisible();
});
