// eBay keeps a live listing true to the catalog: the real quantity on a full publish, prices and
// quantities through bulkUpdatePriceQuantity (the cheap route), and the listing withdrawn at its
// end; every request checked against eBay's published contract by the stand-in.
import { channelsConfigFrom } from "./channels-env.js";
import {
  ChannelWaitError,
  createChannelRegistry,
  GiveUpChannelError,
  type DestinationTarget,
} from "../src/index.js";
import { startEbayStandin, type ChannelStandin } from "../src/standins/index.js";
import { failureOf, withVariants } from "./channel-fixtures.js";
import { listingInput, product, publishInput } from "./fixtures.js";

let standin: ChannelStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
const SETTINGS = {
  marketplaceId: "EBAY_US",
  categoryId: "20625",
  merchantLocationKey: "warehouse-1",
  paymentPolicyId: "pay-1",
  returnPolicyId: "ret-1",
  fulfillmentPolicyId: "ful-1",
};
const redirectUri = "https://catalog.example/api/integrations/ebay/callback";

beforeAll(async () => {
  // The declared rate's clock stands still: the rate test cannot see a second pass between calls.
  const frozen = Date.now();
  standin = await startEbayStandin({ callbackUrl: redirectUri, now: () => frozen });
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 3_000 }).channel(
    "ebay",
  );
});
afterAll(() => standin.close());
afterEach(() => {
  standin.clearFaults();
  standin.setRate(null);
  // Every request the adapter made, the new routes' included, kept to eBay's contract.
  expect(standin.violations).toEqual([]);
});

async function connectSeller(): Promise<DestinationTarget & { storeId: string }> {
  const { url, pending } = await channel.connect!.start({ state: "st", redirectUri, query: {} });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  const account = await channel.connect!.finish({
    params: Object.fromEntries(back.searchParams),
    pending,
    redirectUri,
    signal: AbortSignal.timeout(3_000),
  });
  return {
    id: "d",
    channel: "ebay",
    baseUrl: account.baseUrl,
    credentials: account.credentials,
    settings: SETTINGS,
    storeId: standin.storeIds().at(-1)!,
  };
}

test("a full publish lists the catalog's quantity, each variant's own where it has one", async () => {
  const dest = await connectSeller();
  await channel.adapter.publish(publishInput(dest, product({ variants: [], quantity: 7 })));
  const grouped = withVariants({ quantity: 3 });
  grouped.variants[1]!.quantity = 0;
  await channel.adapter.publish(publishInput(dest, grouped));
  const [single, group] = standin.store(dest.storeId).listings;
  expect(single!.quantity).toBe(7);
  const offers = (group!.raw as { offers: Array<{ sku: string; availableQuantity: number }> })
    .offers;
  expect(Object.fromEntries(offers.map((o) => [o.sku, o.availableQuantity]))).toEqual({
    [grouped.variants[0]!.sku!]: 3,
    [grouped.variants[1]!.sku!]: 0,
  });
});

test("an unknown quantity lists what availability says: 1 in stock, 0 sold out", async () => {
  const dest = await connectSeller();
  await channel.adapter.publish(publishInput(dest, product({ variants: [], quantity: null })));
  await channel.adapter.publish(
    publishInput(dest, product({ variants: [], quantity: null, availability: "OutOfStock" })),
  );
  expect(standin.store(dest.storeId).listings.map((l) => l.quantity)).toEqual([1, 0]);
});

test("updateOffer changes price and quantity through bulkUpdatePriceQuantity, nothing else", async () => {
  const dest = await connectSeller();
  const prod = withVariants({ quantity: 5 });
  const { remoteId } = await channel.adapter.publish(publishInput(dest, prod));
  const before = standin.store(dest.storeId);
  const changed = {
    ...prod,
    title: "Not sent by the cheap route",
    variants: prod.variants.map((v, i) => ({ ...v, priceAmount: `3${i}.0000`, quantity: 10 + i })),
  };
  await channel.adapter.updateOffer!(listingInput(dest, changed, remoteId));
  const after = standin.store(dest.storeId);
  const [listing] = after.listings;
  expect(listing).toMatchObject({ id: remoteId, title: before.listings[0]!.title });
  const offers = (
    listing!.raw as {
      offers: Array<{ availableQuantity: number; pricingSummary: { price: { value: string } } }>;
    }
  ).offers;
  expect(offers.map((o) => [o.pricingSummary.price.value, o.availableQuantity])).toEqual([
    ["30.00", 10],
    ["31.00", 11],
  ]);
  const routes = (name: string) =>
    (after.counts.routes[name] ?? 0) - (before.counts.routes[name] ?? 0);
  expect(routes("POST /bulk_update_price_quantity")).toBe(1);
  // No full update: no item, group or offer written, nothing published again.
  expect(routes("PUT /inventory_item/{id}")).toBe(0);
  expect(routes("PUT /inventory_item_group/{id}")).toBe(0);
  expect(routes("PUT /offer/{id}")).toBe(0);
  expect(routes("POST /offer/publish_by_inventory_item_group")).toBe(0);
});

test("a SKU eBay refuses in the bulk answer (207) gives up naming it", async () => {
  const dest = await connectSeller();
  const prod = product({ variants: [], quantity: 2 });
  const { remoteId } = await channel.adapter.publish(publishInput(dest, prod));
  // The offer was withdrawn on eBay: its offer is no longer published, so eBay refuses that SKU.
  await channel.adapter.endListing(listingInput(dest, prod, remoteId));
  const error = await failureOf(
    channel.adapter.updateOffer!(listingInput(dest, { ...prod, quantity: 1 }, remoteId)),
  );
  expect(error).toBeInstanceOf(GiveUpChannelError);
  expect((error as Error).message).toMatch(/not a published offer/);
});

test("a declared rate over which eBay throttles becomes a wait", async () => {
  const dest = await connectSeller();
  const prod = product({ variants: [], quantity: 2 });
  const { remoteId } = await channel.adapter.publish(publishInput(dest, prod));
  // One request a second: the offer lookup passes, the bulk update right after it is throttled.
  standin.setRate(1);
  const error = await failureOf(
    channel.adapter.updateOffer!(listingInput(dest, { ...prod, quantity: 4 }, remoteId)),
  );
  expect(error).toBeInstanceOf(ChannelWaitError);
  expect((error as ChannelWaitError).retryAfterMs).toBe(1_000);
});

test("endListing withdraws the offer (a single SKU) or the group; the listing is gone", async () => {
  const dest = await connectSeller();
  const single = product({ variants: [] });
  const grouped = withVariants();
  const one = await channel.adapter.publish(publishInput(dest, single));
  const two = await channel.adapter.publish(publishInput(dest, grouped));
  await channel.adapter.endListing(listingInput(dest, single, one.remoteId));
  await channel.adapter.endListing(listingInput(dest, grouped, two.remoteId));
  const { listings, counts } = standin.store(dest.storeId);
  expect(listings).toEqual([]);
  expect(counts.routes["POST /offer/{id}/withdraw"]).toBe(1);
  expect(counts.routes["POST /offer/withdraw_by_inventory_item_group"]).toBe(1);
  // Publishing again lists it anew (the offers stayed, unpublished).
  await channel.adapter.publish(publishInput(dest, single));
  expect(standin.store(dest.storeId).listings).toHaveLength(1);
});

test("ending a listing eBay does not have counts as ended", async () => {
  const dest = await connectSeller();
  const never = product({ variants: [] });
  await channel.adapter.endListing(listingInput(dest, never, "110999"));
  const group = withVariants();
  await channel.adapter.endListing(listingInput(dest, group, "110998"));
  const faulted = product({ variants: [] });
  const { remoteId } = await channel.adapter.publish(publishInput(dest, faulted));
  standin.setFault(dest.storeId, { kind: "error", status: 503, times: 1 });
  const error = await failureOf(channel.adapter.endListing(listingInput(dest, faulted, remoteId)));
  expect(error).toMatchObject({ outcome: "retry" });
});

test("a bulk request that breaks eBay's contract is refused and recorded", async () => {
  const dest = await connectSeller();
  const answer = await fetch(`${dest.baseUrl}/sell/inventory/v1/bulk_update_price_quantity`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${String(dest.credentials.accessToken)}`,
      "content-type": "application/json",
      "content-language": "en-US",
    },
    body: JSON.stringify({
      requests: [{ sku: "X", shipToLocationAvailability: { quantity: "many" } }],
    }),
  });
  expect(answer.status).toBe(400);
  expect(standin.violations).toEqual([
    expect.objectContaining({ request: "POST /sell/inventory/v1/bulk_update_price_quantity" }),
  ]);
  standin.violations.length = 0;
});
