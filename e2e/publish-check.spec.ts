import { createDestination } from "@catalog/db";
import { test, expect } from "./support/fixtures.js";
import { addProducts, signIn, standinStore } from "./support/actions.js";

test("check first: what each store would refuse and why, before anything is published", async ({
  page,
  org,
  db,
  keyring,
  stack,
  shop,
}) => {
  await addProducts(db, org.org.id, 2, "Cedar box");
  await addProducts(db, org.org.id, 1, "Cedar box unpriced", { price: null });
  const harbour = await shop("Harbour store");
  // An eBay store whose policies were never chosen: every product fails there until they are.
  await createDestination(db, keyring, {
    orgId: org.org.id,
    channel: "ebay",
    name: "eBay outlet",
    baseUrl: stack.E2E_STANDIN_URL,
    settings: { marketplaceId: "EBAY_US" },
    credentials: { accessToken: "t" },
  });

  await signIn(page, org.member, "/products");
  await page.getByLabel("Search by title or SKU").fill("Cedar box");
  await expect(page.getByText("3 matching products", { exact: true })).toBeVisible();
  await page.getByRole("checkbox", { name: "Select every product on this page" }).check();
  await page
    .getByRole("region", { name: "Selection" })
    .getByRole("link", { name: "Publish selected" })
    .click();
  await expect(page.getByRole("heading", { name: "Publish 3 products", level: 1 })).toBeVisible();
  await page.getByLabel("Harbour store").check();
  await page.getByLabel("eBay outlet").check();
  await page.getByRole("button", { name: "Check first" }).click();

  const results = page.getByRole("region", { name: "Check before publishing" });
  await expect(results).toBeVisible();
  await expect(results.getByRole("heading", { name: "Check before publishing" })).toBeFocused();
  await expect(results).toContainText("4 of 6 listings would fail");
  await page.screenshot({ path: "/tmp/dryrun-results.png", fullPage: true });

  const store = (name: string) =>
    results.getByRole("listitem").filter({ has: page.getByRole("heading", { name, level: 3 }) });
  const harbourResult = store("Harbour store");
  await expect(harbourResult).toContainText("1 of 3 would fail");
  // The failure links to where it is fixed: the product's edit form.
  await expect(harbourResult.getByRole("link", { name: "Cedar box unpriced 1" })).toHaveAttribute(
    "href",
    /\/products\/[0-9a-f-]{36}\?edit=1$/,
  );
  await expect(harbourResult).toContainText("Price: missing");
  await expect(harbourResult.getByRole("link", { name: "Cedar box 1" })).toHaveCount(0);

  // The store's settings are said once, not under every product.
  const ebay = store("eBay outlet");
  await expect(ebay).toContainText("3 of 3 would fail");
  await expect(ebay).toContainText(
    "Store settings to fix: every product fails here until they are set",
  );
  await expect(ebay).toContainText("Category: missing");
  await expect(ebay).toContainText("Payment policy: missing");
  await expect(ebay.getByText("Category:", { exact: false })).toHaveCount(1);
  await expect(ebay.getByRole("link", { name: "Cedar box unpriced 1" })).toBeVisible();
  await expect(ebay.getByRole("link", { name: "Cedar box 2" })).toHaveCount(0);

  // Nothing was published or recorded.
  expect((await standinStore(stack.E2E_STANDIN_URL, harbour.store)).counts.requests).toBe(0);
  expect(await db.publishRun.count({ where: { orgId: org.org.id } })).toBe(0);
  expect(await db.syncLog.count({ where: { orgId: org.org.id } })).toBe(0);

  // Another choice of stores makes the check stale; checking again answers for the new choice.
  await page.getByLabel("eBay outlet").uncheck();
  await expect(results).toHaveCount(0);
  await expect(page.getByText(/changed since the check: check again/)).toBeVisible();
  await page.getByRole("button", { name: "Check first" }).click();
  await expect(results).toContainText("1 of 3 listings would fail");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "/tmp/dryrun-narrow.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The check acts on what it found: publish the ones that pass, leaving out the one that would fail.
  await page.getByRole("button", { name: "Publish the 2 that pass" }).click();
  await expect(
    page.getByRole("heading", { name: /^Cedar box \d and 1 more to [^,]+$/, level: 1 }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Cedar box unpriced 1" })).toHaveCount(0);
});
