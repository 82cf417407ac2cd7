// Issue 34, items 2 and 3 (the run view): failures in a merchant's words (the product's and the
// store's names, the field as the forms label it, what to do), each linked to where it is fixed,
// the stores' own messages and the ids behind "Details"; "Retry" only for what a retry can change.
import { join } from "node:path";
import { createDestination } from "@catalog/db";
import { test, expect } from "./support/fixtures.js";
import {
  addProducts,
  apiAs,
  publishThroughApi,
  setStandinFault,
  signIn,
} from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

test("a run says what failed in a merchant's words, links each failure to its fix, and offers retry only where it can help", async ({
  page,
  org,
  db,
  keyring,
  stack,
  playwright,
  shop,
}) => {
  const [priced] = await addProducts(db, org.org.id, 1, "Birch tray");
  const [unpriced] = await addProducts(db, org.org.id, 1, "Birch tray unpriced", { price: null });
  const harbour = await shop("Harbour store");
  // A store that is down for the whole run: the priced tray runs out of attempts there.
  const quay = await shop("Quay store");
  await setStandinFault(stack.E2E_STANDIN_URL, quay.store, { kind: "error", status: 503 });
  // An eBay store whose policies were never chosen.
  await createDestination(db, keyring, {
    orgId: org.org.id,
    channel: "ebay",
    name: "eBay outlet",
    baseUrl: stack.E2E_STANDIN_URL,
    settings: { marketplaceId: "EBAY_US" },
    credentials: { accessToken: "t" },
  });
  const ebay = await db.destinationAccount.findFirstOrThrow({
    where: { orgId: org.org.id, name: "eBay outlet" },
  });

  const api = await apiAs(playwright, stack.E2E_BASE_URL, org.member);
  const { runId } = await publishThroughApi(
    api,
    [priced!.id, unpriced!.id],
    [harbour.id, quay.id, ebay.id],
  );
  await expect
    .poll(
      async () =>
        ((await (await api.get(`/api/publish-runs/${runId}`)).json()) as { finished: boolean })
          .finished,
      { timeout: 45_000 },
    )
    .toBe(true);

  await signIn(page, org.owner, `/runs/${runId}`);
  const failures = page.getByRole("region", { name: "What failed, and how to fix it" });
  await expect(failures).toContainText(
    "Birch tray unpriced 1 has no price. Add a price, then publish again.",
  );
  await expect(failures).toContainText("eBay outlet is missing settings (Category missing");
  await expect(failures).toContainText("Fill them in the store's settings, then publish again.");
  await expect(failures).toContainText(
    "Quay store could not be reached, or asked to wait, until the attempts ran out. Retry in a moment.",
  );
  // Developers' words and ids only behind "Details".
  await expect(page.getByText(/needs a price: product/).filter({ visible: true })).toHaveCount(0);
  await expect(page.getByText(unpriced!.id).filter({ visible: true })).toHaveCount(0);

  // Each failure links to where it is fixed.
  await expect(failures.getByRole("link", { name: "Edit Birch tray unpriced 1" })).toHaveAttribute(
    "href",
    `/products/${unpriced!.id}?edit=1`,
  );
  await expect(failures.getByRole("link", { name: "Open eBay outlet’s settings" })).toHaveAttribute(
    "href",
    `/destinations#dest-${ebay.id}`,
  );

  // Only the outage can change by retrying: not the missing price, not the missing settings.
  await expect(page.getByRole("button", { name: "Retry 1 failed" })).toBeVisible();

  const priceGroup = failures.getByRole("listitem").filter({ hasText: "has no price" });
  await priceGroup.getByText("Details").click();
  await expect(priceGroup.getByText(/needs a price: product/).first()).toBeVisible();

  await page.screenshot({ path: join(SCREENSHOTS, "failure-words-run-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await failures.screenshot({ path: join(SCREENSHOTS, "failure-words-run-390.png") });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Fixed, the product's failures can be retried too.
  await failures.getByRole("link", { name: "Edit Birch tray unpriced 1" }).click();
  const form = page.getByRole("region", { name: "Edit product" });
  await form.getByLabel("Price").fill("18.00");
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await page.goBack();
  await expect(page.getByRole("button", { name: /^Retry [2-9] failed$/ })).toBeVisible();
});
