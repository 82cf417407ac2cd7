// Data on every screen of the dashboard (products, a store, a publish run with one failure folded
// behind "Show all", an extension key, an API token), and the screens with the heading each shows:
// for the specs that walk them all.
import { expect, type Page } from "@playwright/test";
import { addProducts, apiAs, publishThroughApi } from "./actions.js";
import type { OrgFixtures, WorkerFixtures } from "./fixtures.js";

export interface Screen {
  name: string;
  path: string;
  heading: string | RegExp;
}

type Needs = Pick<OrgFixtures, "org" | "shop"> &
  Pick<WorkerFixtures, "db" | "stack"> & { playwright: Parameters<typeof apiAs>[0] };

/** Fills the org's screens (long names, so that wrapping is seen); the owner's screens to visit. */
export async function fillEveryScreen({
  org,
  shop,
  db,
  stack,
  playwright,
}: Needs): Promise<Screen[]> {
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
      jobId: `every-screen-${run.runId!}`,
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
  return [
    { name: "catalog", path: "/products", heading: "Catalog" },
    { name: "product", path: `/products/${products[0]!.id}`, heading: products[0]!.title },
    { name: "import", path: "/imports", heading: "Import products" },
    { name: "runs", path: "/runs", heading: "Publish runs" },
    {
      name: "run",
      path: `/runs/${run.runId!}`,
      heading: /^Linen napkin .* and 2 more to Harbour and Quay linen shop$/,
    },
    { name: "destinations", path: "/destinations", heading: "Destinations" },
    { name: "sync-logs", path: "/sync-logs", heading: "Sync logs" },
    { name: "legal", path: "/legal", heading: "Legal" },
    { name: "extension-keys", path: "/keys", heading: "Extension keys" },
    { name: "api-tokens", path: "/api-tokens", heading: "API tokens" },
    { name: "webhooks", path: "/webhooks", heading: "Webhooks" },
  ];
}

/** Opens `screen` and waits until its heading shows and nothing is loading any more. */
export async function openScreen(page: Page, { path, heading }: Screen): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
}
