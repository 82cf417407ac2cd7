// Amazon's listing notifications, end to end: the stand-in, after accepting a listing, sends its
// status and issues notifications (checked against Amazon's notification schemas in ../shared)
// to the gateway as the operator's relay would, and the merchant sees on the product that the
// listing is buyable; when Amazon suppresses it, they see that and why; publishing again clears it.
import { startAmazonStandin, type AmazonStandin } from "@catalog/channels/standins";
import { eventually, makeProduct } from "@catalog/testing";
import { startServedPipeline, syncLogsOf, type Pipeline } from "./pipeline-harness.js";

type Report = {
  sku: string;
  status: string[] | null;
  issues: { severities: string[]; enforcementActions: string[] } | null;
};

let p: Pipeline;
let standin: AmazonStandin;
let gateway: string;
let destinationId: string;
let sellerId: string;

beforeAll(async () => {
  ({ p, standin, gateway } = await startServedPipeline(
    (at) => startAmazonStandin({ callbackUrl: `${at}/api/integrations/amazon/callback` }),
    { CHANNEL_PRIVATE_URLS: "true" },
  ));
  const start = await fetch(
    `${gateway}/api/integrations/amazon/connect?marketplaceId=ATVPDKIKX0DER`,
    { headers: { cookie: p.ownerCookie }, redirect: "manual" },
  );
  const approved = await fetch(start.headers.get("location")!, { redirect: "manual" });
  const done = await fetch(approved.headers.get("location")!, {
    headers: { cookie: p.ownerCookie },
  });
  destinationId = ((await done.json()) as { destination: { id: string } }).destination.id;
  sellerId = standin.storeIds().at(-1)!;
  const settings = await p.app.inject({
    method: "PATCH",
    url: `/api/destinations?id=${destinationId}`,
    headers: { cookie: p.ownerCookie },
    payload: { settings: { productType: "HOME" } },
  });
  expect(settings.statusCode).toBe(200);
}, 30_000);
afterAll(async () => {
  await p.close();
  await standin.close();
});
afterEach(() => {
  expect(standin.violations).toEqual([]);
  expect(standin.notifications.failures).toEqual([]);
});

async function publishAndWait(productId: string) {
  const res = await p.publish([productId], [destinationId]);
  expect(res.statusCode).toBe(200);
  const syncLogId = res.json<{ jobs: { syncLogId: string }[] }>().jobs[0]!.syncLogId;
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, [syncLogId]))[0]).toMatchObject({ status: "succeeded" }),
    15_000,
  );
  // The stand-in queued its notifications when it answered; wait until the gateway took them.
  await standin.notifications.settled();
}

const reportsOf = async (productId: string) => {
  const detail = (
    await p.app.inject({
      method: "GET",
      url: `/api/products/${productId}`,
      headers: { cookie: p.cookie },
    })
  ).json<{ listings: { channelReports: Report[] }[] }>();
  return detail.listings[0]!.channelReports.map(({ sku, status, issues }) => ({
    sku,
    status,
    issues,
  }));
};

test("a published listing is reported buyable; a suppression shows with its enforcement; publishing again clears it", async () => {
  const sku = `NOTIFY-${Date.now()}`;
  const productId = (
    await makeProduct(p.db, p.org.org.id, {
      title: "Notified mug",
      sku,
      price: { amount: "12.00", currency: "USD" },
      brand: "Acme",
      availability: "InStock",
    })
  ).id;
  await publishAndWait(productId);
  expect(await reportsOf(productId)).toEqual([
    {
      sku,
      status: ["BUYABLE", "DISCOVERABLE"],
      issues: { severities: ["NONE"], enforcementActions: [] },
    },
  ]);

  standin.suppress(sellerId, sku);
  await standin.notifications.settled();
  expect(await reportsOf(productId)).toEqual([
    {
      sku,
      status: [],
      issues: { severities: ["ERROR"], enforcementActions: ["LISTING_SUPPRESSED"] },
    },
  ]);

  await publishAndWait(productId);
  expect(await reportsOf(productId)).toEqual([
    {
      sku,
      status: ["BUYABLE", "DISCOVERABLE"],
      issues: { severities: ["NONE"], enforcementActions: [] },
    },
  ]);
}, 40_000);

test("a variation family: the parent is discoverable only, each child buyable, all on the product's one listing", async () => {
  const sku = `NOTIFY-FAM-${Date.now()}`;
  const variant = (suffix: string, color: string) => ({
    sku: `${sku}-${suffix}`,
    title: color,
    price: { amount: "20.00", currency: "USD" },
    options: { Color: color },
    gtin: null,
    availability: "InStock",
    image: null,
  });
  const productId = (
    await makeProduct(p.db, p.org.org.id, {
      title: "Notified shirt",
      sku,
      price: { amount: "20.00", currency: "USD" },
      brand: "Acme",
      availability: "InStock",
      variants: [variant("BL", "Blue"), variant("RD", "Red")],
    })
  ).id;
  await publishAndWait(productId);
  expect(await reportsOf(productId)).toEqual([
    { sku, status: ["DISCOVERABLE"], issues: { severities: ["NONE"], enforcementActions: [] } },
    {
      sku: `${sku}-BL`,
      status: ["BUYABLE", "DISCOVERABLE"],
      issues: { severities: ["NONE"], enforcementActions: [] },
    },
    {
      sku: `${sku}-RD`,
      status: ["BUYABLE", "DISCOVERABLE"],
      issues: { severities: ["NONE"], enforcementActions: [] },
    },
  ]);
}, 40_000);
