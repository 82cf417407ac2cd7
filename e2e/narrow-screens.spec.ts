// Issue 34, "Also": every screen fits a 320 px phone (the narrowest in use), with no sideways
// scrolling of the page; wide tables stack their cells. Each screen is kept as a screenshot at
// 1280, 390 and 320 px (artifacts/screenshots/narrow-<screen>-<width>.png).
import { join } from "node:path";
import { test, expect, type Page } from "./support/fixtures.js";
import { addProducts, apiAs, publishThroughApi, signIn } from "./support/actions.js";
import { SCREENSHOTS } from "./support/paths.js";

// Every screen is looked at, whichever fails first.
const soft = expect.configure({ soft: true });
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
/** Cards (the stacked rows of a table) whose content sticks out of them: their text's start. */
const outOfCards = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>(".table-wrap.responsive tbody tr"))
      .filter((row) => row.scrollWidth > row.clientWidth + 1)
      .map((row) => (row.textContent ?? "").slice(0, 40)),
  );

for (const width of [320, 390, 1280]) {
  test(`every screen fits ${width} px without sideways scrolling`, async ({
    page,
    org,
    db,
    stack,
    playwright,
    shop,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const products = await addProducts(
      db,
      org.org.id,
      3,
      "Linen napkin with a rather long product title that has to wrap",
    );
    const store = await shop("Harbour and Quay linen shop");
    const api = await apiAs(playwright, stack.E2E_BASE_URL, org.owner);
    const run = await publishThroughApi(
      api,
      products.map((p) => p.id),
      [store.id],
    );
    // One publish that failed with a long message: its sync log folds it behind "Show all".
    await db.syncLog.create({
      data: {
        orgId: org.org.id,
        productId: products[1]!.id,
        destinationAccountId: store.id,
        jobId: `narrow-${run.runId!}`,
        runId: run.runId!,
        status: "failed",
        attempts: 3,
        error:
          "standin destination settings are incomplete: marketplaceId is required; categoryId is required; merchantLocationKey is required; fulfillmentPolicyId is required",
      },
    });
    for (const [path, data] of [
      ["/api/extension-keys", { name: "Ana's laptop in the back office" }],
      ["/api/api-tokens", { name: "ERP nightly sync", scopes: ["catalog:read", "publish"] }],
    ] as const) {
      const response = await api.post(path, { data });
      expect(response.status(), path).toBe(201);
    }

    await signIn(page, org.owner, "/products");
    const screens: [name: string, path: string, heading: string | RegExp][] = [
      ["catalog", "/products", "Catalog"],
      ["product", `/products/${products[0]!.id}`, products[0]!.title],
      ["import", "/imports", "Import products"],
      ["runs", "/runs", "Publish runs"],
      ["run", `/runs/${run.runId!}`, /^Linen napkin .* and 2 more to Harbour and Quay linen shop$/],
      ["destinations", "/destinations", "Destinations"],
      ["sync-logs", "/sync-logs", "Sync logs"],
      ["legal", "/legal", "Legal"],
      ["extension-keys", "/keys", "Extension keys"],
      ["api-tokens", "/api-tokens", "API tokens"],
      ["webhooks", "/webhooks", "Webhooks"],
    ];
    for (const [name, path, heading] of screens) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      await page.screenshot({
        path: join(SCREENSHOTS, `narrow-${name}-${width}.png`),
        fullPage: true,
      });
      await soft
        .poll(() => pageWidth(page), { message: `${name} is wider than ${width} px` })
        .toBeLessThanOrEqual(width);
      soft(await outOfCards(page), `${name}: cut off at the edge of a card`).toEqual([]);
      if (name === "catalog" && width < 480) {
        // The order's longer words ("Newest changes first") get a row of their own, not a clipped box.
        const sort = await page.getByLabel("Sort").boundingBox();
        const bar = await page.getByRole("group", { name: "Filters" }).boundingBox();
        soft(sort!.width, "the Sort list is squeezed").toBeGreaterThanOrEqual(bar!.width - 1);
      }
      if (name === "run") {
        // One store's column fits beside the products: its name is not cut at the box's edge.
        const matrix = page.getByRole("region", { name: /Listings per product and store/ });
        soft(
          await matrix.evaluate((el) => el.scrollWidth - el.clientWidth),
          "the products-and-stores table scrolls sideways with one store",
        ).toBeLessThanOrEqual(1);
      }
      if (name === "sync-logs") {
        // The folded failure ends in its "Show all", inside the entry's card.
        const entry = page.getByRole("row").filter({ has: page.getByTestId("sync-result") });
        const failed = entry.filter({ has: page.getByRole("button", { name: "Show all" }) });
        const button = await failed.getByRole("button", { name: "Show all" }).boundingBox();
        const card = await failed.boundingBox();
        soft(button!.x + button!.width, "Show all is cut off").toBeLessThanOrEqual(
          Math.min(card!.x + card!.width, width),
        );
      }
    }
  });
}
