import { join } from "node:path";
import { startFixtureServer, type FixturePage } from "@catalog/testing";
import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn, standinStore } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

/** A supplier's product page: schema.org Product in JSON-LD, its price as the page says now. */
const productPage = (price: string): FixturePage => ({
  body: `<!doctype html><html><head><title>Harbour mug</title>
<script type="application/ld+json">${JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Harbour mug",
    offers: {
      "@type": "Offer",
      price,
      priceCurrency: "GBP",
      availability: "https://schema.org/InStock",
    },
  })}</script></head><body><h1>Harbour mug</h1><p>£${price}</p></body></html>`,
});

test("watch a product's source page, and see a new price there reach the product and its store", async ({
  page,
  org,
  db,
  stack,
  publishToNewShop,
}) => {
  const pages: Record<string, FixturePage> = { "/products/harbour-mug": productPage("12.00") };
  const site = await startFixtureServer(pages);
  try {
    const [product] = await addProducts(db, org.org.id, 1, "Harbour mug", {
      price: { amount: "12.00", currency: "GBP" },
      sourceUrl: site.url("/products/harbour-mug"),
    });
    // Live on a store, automatic sync on (the default).
    const { store } = await publishToNewShop([product!.id], "Pier store");
    const storePrice = async () =>
      (
        (await standinStore(stack.E2E_STANDIN_URL, store.store)).listings as unknown as {
          price: { amount: string };
        }[]
      )[0]?.price.amount;
    await expect.poll(storePrice, { timeout: 30_000 }).toBe("12.00");
    await signIn(page, org.member, "/products");
    await page.getByRole("link", { name: "Harbour mug 1" }).click();
    await expect(page.getByRole("heading", { name: "Harbour mug 1", level: 1 })).toBeVisible();

    const watch = page.getByRole("region", { name: "Source watch" });
    await expect(watch).toContainText("Not watched.");
    await watch.getByLabel("Check the source page").selectOption({ label: "Every day" });
    // Watching checks the page at once: it says what the product says.
    const result = watch.getByTestId("watch-result");
    await expect(result).toHaveText("no change", { timeout: 30_000 });
    await expect(watch.getByText("Next check")).toBeVisible();

    // The supplier lowers the price; the user asks for a check rather than wait a day.
    pages["/products/harbour-mug"] = productPage("9.50");
    await watch.getByRole("button", { name: "Check now" }).click();
    await expect(result).toHaveText("price 12.00 GBP -> 9.50 GBP", { timeout: 30_000 });

    const details = page.getByRole("region", { name: "Details" });
    await expect(details).toContainText("9.50");
    const history = page.getByRole("region", { name: "History" });
    const latest = history
      .getByRole("listitem")
      .filter({ hasText: /^Edited by/ })
      .first();
    await expect(latest).toContainText("Edited by Source re-check");
    await expect(latest).toContainText("12.00");
    await expect(latest).toContainText("9.50");
    // Nobody publishes: the store follows the supplier's page.
    await expect.poll(storePrice, { timeout: 30_000 }).toBe("9.50");
  } finally {
    await site.close();
  }
});

test("import pages with “Watch these pages”, and find the stored product watched", async ({
  page,
  org,
  db,
}) => {
  const site = await startFixtureServer({ "/products/harbour-jug": productPage("30.00") });
  try {
    await signIn(page, org.member, "/imports");
    await page
      .getByLabel("Product page addresses, one per line")
      .fill(site.url("/products/harbour-jug"));
    await page.getByLabel("Watch these pages").check();
    await page.getByLabel("How often to check the pages").selectOption({ label: "every week" });
    await page.screenshot({ path: join(SCREENSHOTS, "source-watch-import-form.png") });
    await page.getByRole("button", { name: "Preview 1 page" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Preview ready$/ })).toBeAttached({
      timeout: 45_000,
    });
    await page
      .getByRole("region", { name: "Store the preview" })
      .getByRole("button", { name: "Store 1 product" })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "Stored." })).toBeVisible();
    // Storing watches the product, and watching checks its page at once.
    await expect
      .poll(
        async () =>
          (
            await db.product.findFirst({
              where: { orgId: org.org.id, sourceUrl: site.url("/products/harbour-jug") },
            })
          )?.watchLastResult,
        { timeout: 30_000 },
      )
      .toBe("no change");
    await page.getByRole("link", { name: "Open the catalog" }).click();
    await page.getByRole("link", { name: "Harbour mug" }).click();

    const watch = page.getByRole("region", { name: "Source watch" });
    await expect(watch.getByLabel("Check the source page")).toHaveValue("weekly");
    await expect(watch.getByTestId("watch-result")).toHaveText("no change");
  } finally {
    await site.close();
  }
});
