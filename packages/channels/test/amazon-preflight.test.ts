// Amazon's dry run: the product's checks, then Amazon's verdict through putListingsItem with
// mode=VALIDATION_PREVIEW, which stores nothing.
import { channelsConfigFrom } from "./channels-env.js";
import { createChannelRegistry, type DestinationTarget, type PublishableProduct } from "../src/index.js";
import { startAmazonStandin, type ChannelStandin } from "../src/standins/index.js";
import { product } from "./fixtures.js";

let standin: ChannelStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
const redirectUri = "https://catalog.example/api/integrations/amazon/callback";

beforeAll(async () => {
  standin = await startAmazonStandin({ callbackUrl: redirectUri });
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 3_000 }).channel("amazon");
});
afterAll(() => standin.close());
afterEach(() => {
  standin.clearFaults();
  expect(standin.violations).toEqual([]);
});

/** A seller connected through the consent page, with a product type chosen. */
async function connectSeller(productType = "HOME"): Promise<DestinationTarget & { storeId: string }> {
  const { url, pending } = await channel.connect!.start({ state: "st-1", redirectUri, query: { marketplaceId: "ATVPDKIKX0DER" } });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  const account = await channel.connect!.finish({ params: Object.fromEntries(back.searchParams), pending, redirectUri, signal: AbortSignal.timeout(3_000) });
  const sellerId = back.searchParams.get("selling_partner_id")!;
  return { id: `d-${sellerId}`, channel: "amazon", baseUrl: account.baseUrl, credentials: account.credentials, settings: { ...account.settings, productType }, storeId: sellerId };
}

const preflight = (destination: DestinationTarget, p: PublishableProduct) => channel.preflight({ product: p, destination, signal: AbortSignal.timeout(3_000) });

test("a product Amazon accepts: VALIDATION_PREVIEW answers VALID and nothing is listed", async () => {
  const dest = await connectSeller();
  expect(await preflight(dest, product({ variants: [] }))).toEqual([]);
  expect(await preflight(dest, product())).toEqual([]);
  const { listings, counts } = standin.store(dest.storeId);
  expect(listings).toEqual([]);
  expect(counts).toMatchObject({ create: 0, update: 0 });
  expect(counts.requests).toBeGreaterThan(0);
});

test("Amazon's issues per attribute, the product type's required attributes, and the product's own checks without a call", async () => {
  const dest = await connectSeller("DRINKING_CUP");
  expect(await preflight(dest, product({ variants: [], attributes: {} }))).toEqual([
    { field: "attributes.material", message: expect.stringMatching(/DRINKING_CUP requires material/) },
  ]);
  const home = await connectSeller();
  expect(await preflight(home, product({ variants: [], priceAmount: "0.0000" }))).toEqual([
    { field: "attributes.purchasable_offer", message: expect.stringMatching(/^The price must be/) },
  ]);
  standin.setFault(home.storeId, { kind: "invalid", message: "'brand' value 'Acme' is not an approved brand.", field: "brand", times: 1 });
  expect(await preflight(home, product({ variants: [] }))).toEqual([{ field: "attributes.brand", message: "'brand' value 'Acme' is not an approved brand." }]);

  const before = standin.store(home.storeId).counts.requests;
  expect(await preflight(home, product({ sku: null, title: "" }))).toEqual([
    { field: "title", message: "title is required" },
    { field: "sku", message: "sku is required: Amazon keys every listing by SKU" },
  ]);
  expect(standin.store(home.storeId).counts.requests).toBe(before);
  expect(standin.store(home.storeId).listings).toEqual([]);
});

test("settings and credentials: missing settings are named without a call; without a token the store must be connected again", async () => {
  const dest = await connectSeller();
  expect(await preflight({ ...dest, settings: { sellerId: dest.storeId, marketplaceId: "ATVPDKIKX0DER" } }, product())).toEqual([
    { field: "settings.productType", message: "productType is required" },
  ]);
  expect(await preflight({ ...dest, settings: { ...dest.settings, productType: "NO_SUCH_TYPE" } }, product())).toEqual([
    { field: "settings.productType", message: expect.stringMatching(/NO_SUCH_TYPE is not an Amazon product type/) },
  ]);
  expect(await preflight({ ...dest, credentials: {} }, product())).toEqual([
    { field: "destination", message: expect.stringMatching(/needs the store's credentials.*connect the store again$/) },
  ]);
  // An expired access token is replaced from the refresh token for the check (and not stored).
  expect(await preflight({ ...dest, credentials: { ...dest.credentials, expiresAt: Date.now() - 1 } }, product({ variants: [] }))).toEqual([]);
});

test("a throttled preview is sent again after Amazon's wait; one throttled throughout says the check could not be made", async () => {
  const dest = await connectSeller();
  await preflight(dest, product({ variants: [] }));
  const before = standin.store(dest.storeId).counts.requests;
  standin.setFault(dest.storeId, { kind: "throttle", times: 1 });
  expect(await preflight(dest, product({ variants: [] }))).toEqual([]);
  // The definition is cached: the throttled preview and the one sent again.
  expect(standin.store(dest.storeId).counts.requests - before).toBe(2);

  standin.setFault(dest.storeId, { kind: "throttle" });
  expect(await channel.preflight({ product: product({ variants: [] }), destination: dest, signal: AbortSignal.timeout(10_000) })).toEqual([
    { field: "destination", message: expect.stringMatching(/^Amazon could not check it now: .*429/) },
  ]);
}, 20_000);
