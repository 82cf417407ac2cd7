// Shopify keeps a live product true to the catalog: tracked inventory with the catalog's quantities
// at the primary location on a full publish, prices through productVariantsBulkUpdate and
// quantities through inventorySetQuantities (the cheap route), productDelete at its end; every
// document and its variables validated against the Admin 2026-10 schema by the stand-in.
import { channelsConfigFrom } from "./channels-env.js";
import { createChannelRegistry, type DestinationTarget } from "../src/index.js";
import { startShopifyStandin, type ShopifyStandin } from "../src/standins/index.js";
import { failureOf, withVariants } from "./channel-fixtures.js";
import { listingInput, product, publishInput } from "./fixtures.js";

let standin: ShopifyStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;

beforeAll(async () => {
  standin = await startShopifyStandin();
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 3_000 }).channel(
    "shopify",
  );
}, 20_000);
afterAll(() => standin.close());
afterEach(() => {
  standin.clearFaults();
  expect(standin.violations).toEqual([]);
});

let shops = 0;
async function connectShop(): Promise<DestinationTarget & { shop: string }> {
  const shop = `sync-${++shops}-${Date.now()}.myshopify.com`;
  const redirectUri = "https://catalog.example/api/integrations/shopify/callback";
  const { url, pending } = await channel.connect!.start({
    state: "st",
    redirectUri,
    query: { shop },
  });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  const account = await channel.connect!.finish({
    params: Object.fromEntries(back.searchParams),
    pending,
    redirectUri,
    signal: AbortSignal.timeout(3_000),
  });
  return {
    id: `dest-${shop}`,
    channel: "shopify",
    baseUrl: account.baseUrl,
    credentials: account.credentials,
    settings: account.settings,
    shop,
  };
}

type Variant = {
  price: string;
  inventoryItem?: { sku?: string; tracked?: boolean };
  inventoryQuantities?: { locationId: string; name: string; quantity: number }[];
};
const variantsOf = (raw: unknown) => (raw as { variants: Variant[] }).variants;

test("a full publish tracks inventory and sets each variant's quantity at the primary location", async () => {
  const dest = await connectShop();
  const prod = withVariants({ quantity: 7 });
  prod.variants[1]!.quantity = 0;
  await channel.adapter.publish(publishInput(dest, prod));
  const [listing] = standin.store(dest.shop).listings;
  expect(
    variantsOf(listing!.raw).map((v) => [v.inventoryItem?.tracked, v.inventoryQuantities]),
  ).toEqual([
    [true, [{ locationId: "gid://shopify/Location/1", name: "available", quantity: 7 }]],
    [true, [{ locationId: "gid://shopify/Location/1", name: "available", quantity: 0 }]],
  ]);
});

test("an unknown quantity leaves inventory untracked, as before quantities", async () => {
  const dest = await connectShop();
  await channel.adapter.publish(publishInput(dest, product({ variants: [], quantity: null })));
  const [listing] = standin.store(dest.shop).listings;
  expect(variantsOf(listing!.raw)[0]).not.toHaveProperty("inventoryQuantities");
  expect(standin.store(dest.shop).counts.routes).toEqual({ productVariants: 1, productSet: 1 });
});

test("updateOffer: prices by productVariantsBulkUpdate, quantities by inventorySetQuantities, no productSet", async () => {
  const dest = await connectShop();
  const prod = withVariants({ quantity: 3 });
  const { remoteId } = await channel.adapter.publish(publishInput(dest, prod));
  const before = standin.store(dest.shop);
  await channel.adapter.updateOffer!(
    listingInput(
      dest,
      {
        ...prod,
        title: "Not sent",
        variants: prod.variants.map((v, i) => ({
          ...v,
          priceAmount: `4${i}.0000`,
          quantity: 20 + i,
        })),
      },
      remoteId,
    ),
  );
  const after = standin.store(dest.shop);
  expect(after.listings[0]!.title).toBe(before.listings[0]!.title);
  expect(
    variantsOf(after.listings[0]!.raw).map((v) => [v.price, v.inventoryQuantities?.[0]?.quantity]),
  ).toEqual([
    ["40.00", 20],
    ["41.00", 21],
  ]);
  const delta = (route: string) =>
    (after.counts.routes[route] ?? 0) - (before.counts.routes[route] ?? 0);
  expect(delta("product")).toBe(1);
  expect(delta("productVariantsBulkUpdate")).toBe(1);
  expect(delta("inventorySetQuantities")).toBe(1);
  expect(delta("productSet")).toBe(0);
});

test("endListing deletes the product; one the shop no longer has counts as ended", async () => {
  const dest = await connectShop();
  const prod = product({ variants: [] });
  const { remoteId } = await channel.adapter.publish(publishInput(dest, prod));
  await channel.adapter.endListing(listingInput(dest, prod, remoteId));
  expect(standin.store(dest.shop).listings).toEqual([]);
  await channel.adapter.endListing(listingInput(dest, prod, remoteId));
  standin.setFault(dest.shop, { kind: "throttle", retryAfterSeconds: 2, times: 1 });
  const error = await failureOf(channel.adapter.endListing(listingInput(dest, prod, remoteId)));
  expect(error).toMatchObject({ outcome: "wait" });
});

test("a document that breaks the schema is refused and recorded", async () => {
  const dest = await connectShop();
  const answer = await fetch(`${dest.baseUrl}/admin/api/2026-10/graphql.json`, {
    method: "POST",
    headers: {
      "x-shopify-access-token": String(dest.credentials.accessToken),
      "content-type": "application/json",
    },
    // inventorySetQuantities without the idempotency key 2026-10 requires in our document, and with
    // a quantity that is not an Int.
    body: JSON.stringify({
      query: `mutation { inventorySetQuantities(input: { name: "available", reason: "correction", quantities: [{ inventoryItemId: "gid://shopify/InventoryItem/1", locationId: "gid://shopify/Location/1", quantity: "many" }] }) { userErrors { message } } }`,
    }),
  });
  expect(((await answer.json()) as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
  expect(standin.violations).toHaveLength(1);
  standin.violations.length = 0;
});
