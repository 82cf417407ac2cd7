// Etsy keeps a live listing true to the catalog: each offering's quantity on a full publish, prices
// and quantities through the inventory PUT alone (the cheap route), and deleteListing at its end;
// every request checked against Etsy's published contract by the stand-in.
import { channelsConfigFrom } from "./channels-env.js";
import { createChannelRegistry, type DestinationTarget } from "../src/index.js";
import { startEtsyStandin, type ChannelStandin } from "../src/standins/index.js";
import { failureOf, withVariants } from "./channel-fixtures.js";
import { listingInput, product, publishInput } from "./fixtures.js";

let standin: ChannelStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
const redirectUri = "https://catalog.example/api/integrations/etsy/callback";

beforeAll(async () => {
  standin = await startEtsyStandin();
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 5_000 }).channel(
    "etsy",
  );
});
afterAll(() => standin.close());
afterEach(() => {
  standin.clearFaults();
  expect(standin.violations).toEqual([]);
});

async function connectShop(): Promise<DestinationTarget & { storeId: string }> {
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
    channel: "etsy",
    baseUrl: account.baseUrl,
    credentials: account.credentials,
    settings: { ...account.settings, taxonomyId: 1633, readinessStateId: 7 },
    storeId: account.externalId!,
  };
}

type Inventory = {
  products: Array<{ sku: string; offerings: Array<{ price: number; quantity: number }> }>;
};
const inventoryOf = (raw: unknown) => (raw as { inventory: Inventory }).inventory;

test("a full publish gives each offering its quantity", async () => {
  const shop = await connectShop();
  const prod = withVariants({ images: [], quantity: 6 });
  prod.variants[0]!.quantity = 2;
  await channel.adapter.publish(publishInput(shop, prod));
  const [listing] = standin.store(shop.storeId).listings;
  expect(inventoryOf(listing!.raw).products.map((p) => p.offerings[0]!.quantity)).toEqual([2, 6]);
});

test("updateOffer is the inventory PUT alone, with the new prices and quantities", async () => {
  const shop = await connectShop();
  const prod = product({ variants: [], images: [], quantity: 3 });
  const { remoteId } = await channel.adapter.publish(publishInput(shop, prod));
  const before = standin.store(shop.storeId);
  await channel.adapter.updateOffer!(
    listingInput(
      shop,
      { ...prod, title: "Not sent", priceAmount: "25.0000", quantity: 9 },
      remoteId,
    ),
  );
  const after = standin.store(shop.storeId);
  expect(after.listings[0]).toMatchObject({ title: prod.title, priceAmount: "25.00", quantity: 9 });
  const delta = (route: string) =>
    (after.counts.routes[route] ?? 0) - (before.counts.routes[route] ?? 0);
  expect(delta("PUT /listings/{id}/inventory")).toBe(1);
  expect(after.counts.requests - before.counts.requests).toBe(1);
});

test("endListing deletes the listing; one Etsy does not have counts as ended", async () => {
  const shop = await connectShop();
  const prod = product({ variants: [], images: [] });
  const { remoteId } = await channel.adapter.publish(publishInput(shop, prod));
  await channel.adapter.endListing(listingInput(shop, prod, remoteId));
  expect(standin.store(shop.storeId).listings).toEqual([]);
  await channel.adapter.endListing(listingInput(shop, prod, remoteId));
  standin.setFault(shop.storeId, { kind: "throttle", retryAfterSeconds: 3, times: 1 });
  const error = await failureOf(channel.adapter.endListing(listingInput(shop, prod, remoteId)));
  expect(error).toMatchObject({ outcome: "wait", retryAfterMs: 3_000 });
});
