// Issue 34, item 5: sync logs a merchant can read. Two runs of 12 entries (one three days ago,
// one today), long channel errors among them: folded to a line with an expander, dated when older
// than today, grouped under their run, and "failed on this store" one filter away.
import { join } from "node:path";
import type { Db } from "@catalog/db";
import { test, expect, type Page } from "./support/fixtures.js";
import { addProducts, signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

const LONG_ERROR =
  "ebay destination settings are incomplete: marketplaceId is required; categoryId is required; " +
  "merchantLocationKey is required; fulfillmentPolicyId is required; paymentPolicyId is required; " +
  "returnPolicyId is required; the channel answered at " +
  "https://127.0.0.1:9/sell/inventory/v1/offer/publish_by_inventory_item_group?marketplace=EBAY_US";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A run of every product to every store, at `at`; `outcome` picks each entry's state. */
async function addRun(
  db: Db,
  orgId: string,
  at: Date,
  products: { id: string; title: string; sku: string }[],
  storeIds: string[],
  outcome: (productIndex: number, storeIndex: number) => "succeeded" | "failed" | "dead",
) {
  const run = await db.publishRun.create({
    data: {
      orgId,
      actorType: "user",
      products: products.map((p) => ({ id: p.id, title: p.title, sku: p.sku })),
      destinationIds: storeIds,
      createdAt: at,
    },
  });
  await db.syncLog.createMany({
    data: products.flatMap((p, i) =>
      storeIds.map((storeId, s) => {
        const status = outcome(i, s);
        return {
          orgId,
          productId: p.id,
          destinationAccountId: storeId,
          jobId: `job-${run.id}-${i}-${s}`,
          runId: run.id,
          status,
          attempts: status === "succeeded" ? 1 : 3,
          error: status === "succeeded" ? null : LONG_ERROR,
          remoteId: status === "succeeded" ? `R-${i}-${s}` : null,
          createdAt: new Date(at.getTime() + i * 1000 + s),
          startedAt: new Date(at.getTime() + i * 1000 + s + 200),
          finishedAt: new Date(at.getTime() + i * 1000 + s + 900),
        };
      }),
    ),
  });
  return run.id;
}

const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

test("sync logs: 24 entries grouped by run, long results folded, older rows dated, failures on one store one filter away", async ({
  page,
  org,
  db,
  shop,
}) => {
  const products = await addProducts(db, org.org.id, 6, "Linen apron");
  const harbour = await shop("Harbour shop");
  const quay = await shop("Quay shop");
  const stores = [harbour.id, quay.id];
  const threeDaysAgo = new Date(Date.now() - 3 * DAY);
  threeDaysAgo.setHours(10, 0, 0, 0);
  // Older run: on Quay shop two gave up and one failed; today's run: one gave up on Harbour shop.
  await addRun(db, org.org.id, threeDaysAgo, products, stores, (i, s) =>
    s === 1 && i < 2 ? "dead" : s === 1 && i === 2 ? "failed" : "succeeded",
  );
  const today = new Date(Math.max(Date.now() - HOUR, new Date().setHours(0, 5, 0, 0)));
  await addRun(db, org.org.id, today, products, stores, (i, s) =>
    s === 0 && i === 0 ? "dead" : "succeeded",
  );

  await signIn(page, org.member, "/sync-logs");
  await expect(page.getByRole("heading", { name: "Sync logs", level: 1 })).toBeVisible();

  // Grouped by run, newest first, each group leading to its run.
  const runs = page.getByRole("rowgroup").filter({ has: page.getByRole("link", { name: /run/i }) });
  await expect(runs).toHaveCount(2);
  // Each run named as on the runs screen: its first product and its stores.
  for (const run of [runs.nth(0), runs.nth(1)])
    await expect(run.getByRole("row").first()).toContainText(
      "Linen apron 1 and 5 more to Harbour shop and Quay shop",
    );
  await expect(runs.nth(0).getByRole("row")).toHaveCount(13);
  await expect(runs.nth(0)).toContainText("12 entries · 1 failed");
  await expect(runs.nth(1)).toContainText("12 entries · 3 failed");
  await expect(runs.nth(1).getByRole("link", { name: "Open the run" })).toHaveAttribute(
    "href",
    /\/runs\/[0-9a-f-]{36}$/,
  );

  // Older rows carry their date; today's show the time alone.
  const olderDay = threeDaysAgo.toLocaleDateString("en-US", { month: "short", day: "numeric" });
  await expect(runs.nth(1).getByRole("row").nth(1)).toContainText(olderDay);
  await expect(runs.nth(0).getByRole("row").nth(1)).not.toContainText(
    new Date().toLocaleDateString("en-US", { month: "short", day: "numeric" }),
  );

  // A long result is one line until asked for; then all of it, words whole.
  const failedRow = runs
    .nth(0)
    .getByRole("row")
    .filter({ has: page.getByTestId("sync-result") })
    .filter({ hasText: "Linen apron 1" })
    .filter({ hasText: "Harbour shop" });
  const result = failedRow.getByTestId("sync-result");
  const folded = await result.boundingBox();
  expect(folded!.height).toBeLessThan(48);
  await failedRow.getByRole("button", { name: "Show all" }).click();
  await expect(failedRow.getByRole("button", { name: "Show less" })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await expect(result).toContainText("returnPolicyId is required");
  expect((await result.boundingBox())!.height).toBeGreaterThan(folded!.height);
  await failedRow.getByRole("button", { name: "Show less" }).click();

  // 24 entries fit in well under the 3,600 px they used to take.
  expect(await pageHeight(page)).toBeLessThan(2_000);
  await page.screenshot({ path: join(SCREENSHOTS, "sync-logs-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  expect(await pageHeight(page)).toBeLessThan(3_600);
  // On a phone the folded line still ends in its "Show all", inside the card.
  const showAll = await failedRow.getByRole("button", { name: "Show all" }).boundingBox();
  const card = await failedRow.boundingBox();
  expect(showAll!.x + showAll!.width).toBeLessThanOrEqual(card!.x + card!.width);
  await page.screenshot({ path: join(SCREENSHOTS, "sync-logs-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // What failed on Quay shop: one status and one store, kept in the address.
  await page.getByLabel("Status").selectOption({ label: "Every failure" });
  await page.getByLabel("Store").selectOption({ label: "Quay shop" });
  await expect(page).toHaveURL(/status=failures/);
  const rows = page.getByRole("row").filter({ has: page.getByTestId("sync-result") });
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) await expect(row).toContainText("Quay shop");
  await expect(page.getByText("Linen apron 3")).toBeVisible();
  await page.reload();
  await expect(rows).toHaveCount(3);
  await page.screenshot({ path: join(SCREENSHOTS, "sync-logs-failed-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SCREENSHOTS, "sync-logs-failed-390.png"), fullPage: true });
});
