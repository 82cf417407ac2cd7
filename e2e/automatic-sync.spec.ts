import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn, standinStore, waitForStandinListings } from "./support/actions.js";

test("a price edited in the dashboard reaches the live listing by itself", async ({
  page,
  org,
  db,
  stack,
  publishToNewShop,
}) => {
  const [product] = await addProducts(db, org.org.id, 1, "Oak tray");
  const { store: shop, api } = await publishToNewShop([product!.id], "Corner shop");
  await waitForStandinListings(stack.E2E_STANDIN_URL, shop.store, 1);

  await signIn(page, org.member, `/products/${product!.id}`);
  const listings = page.getByRole("region", { name: "Listings" });
  await expect(listings.getByTestId("listing-sync")).toHaveText("In sync");

  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Price").fill("27.00");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);

  // Nobody publishes again: the store gets the new price, and the page says the listing is in sync.
  await expect
    .poll(
      async () =>
        (
          (await standinStore(stack.E2E_STANDIN_URL, shop.store)).listings[0] as unknown as {
            price: { amount: string };
          }
        ).price.amount,
      { timeout: 15_000 },
    )
    .toBe("27.00");
  await expect(listings.getByTestId("listing-sync")).toHaveText("In sync", { timeout: 15_000 });
  await page.screenshot({ path: "e2e/artifacts/screenshots/automatic-sync-product.png" });

  // The sync log says what changed, and who changed it.
  await page.goto("/sync-logs?kind=update");
  const row = page.getByRole("row").filter({ hasText: "Automatic update" });
  await expect(row).toContainText(`price changed by ${org.member.email}`);
  await expect(row).toContainText("prices and quantities only");
  await page.screenshot({ path: "e2e/artifacts/screenshots/automatic-sync-logs.png" });
  await api.dispose();
});
