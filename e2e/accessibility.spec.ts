// Every screen passes axe-core's WCAG 2.1 A and AA rules (contrast, names of buttons, links and
// fields, landmarks, list structure...) with no violation of any impact, signed out and signed
// in, with data on every screen.
import { test, expect } from "./support/fixtures.js";
import { addProducts, apiAs, publishThroughApi, signIn } from "./support/actions.js";
import { axeViolations } from "./support/axe.js";

const soft = expect.configure({ soft: true });

test("every screen passes axe-core's WCAG 2.1 A and AA rules", async ({
  page,
  org,
  db,
  stack,
  playwright,
  shop,
}) => {
  const products = await addProducts(db, org.org.id, 3, "Linen napkin");
  const store = await shop("Harbour linen shop");
  const api = await apiAs(playwright, stack.E2E_BASE_URL, org.owner);
  const run = await publishThroughApi(
    api,
    products.map((p) => p.id),
    [store.id],
  );
  await db.syncLog.create({
    data: {
      orgId: org.org.id,
      productId: products[1]!.id,
      destinationAccountId: store.id,
      jobId: `axe-${run.runId!}`,
      runId: run.runId!,
      status: "failed",
      attempts: 3,
      error: "standin destination settings are incomplete: marketplaceId is required",
    },
  });

  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  soft(await axeViolations(page), "sign-in").toEqual([]);

  await signIn(page, org.owner, "/products");
  const screens: [name: string, path: string][] = [
    ["catalog", "/products"],
    ["product", `/products/${products[0]!.id}`],
    ["import", "/imports"],
    ["runs", "/runs"],
    ["run", `/runs/${run.runId!}`],
    ["destinations", "/destinations"],
    ["sync-logs", "/sync-logs"],
    ["legal", "/legal"],
    ["extension-keys", "/keys"],
    ["api-tokens", "/api-tokens"],
    ["webhooks", "/webhooks"],
  ];
  for (const [name, path] of screens) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    soft(await axeViolations(page), name).toEqual([]);
  }
});
