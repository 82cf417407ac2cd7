import { sharedInput } from "@catalog/test-support/shared-inputs";
import { channelsConfigFrom } from "./channels-env.js";
import {
  ChannelWaitError,
  createChannelRegistry,
  RetryableChannelError,
  type DestinationTarget,
} from "../src/index.js";
import {
  sharedContractsDir,
  startEbayStandin,
  type ChannelStandin,
} from "../src/standins/index.js";
import { demanding, failureOf, withVariants } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";
import { anyOf } from "@catalog/test-support/matchers";

let standin: ChannelStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
// The channel's published contract (../shared/contracts); with CI set, its absence fails the run.
const contracts = sharedInput({
  what: "the channels' contracts",
  path: sharedContractsDir(),
  expectedAt: "../shared/contracts (or SHARED_CONTRACTS_DIR)",
  tests: "eBay's contract checks",
});
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
  standin = await startEbayStandin({ callbackUrl: redirectUri });
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 3_000 }).channel(
    "ebay",
  );
});
afterAll(() => standin.close());
afterEach(() => standin.clearFaults());

/**
 * A seller connected through the stand-in's authorize page and token endpoint, with their settings.
 */
async function connectSeller(): Promise<DestinationTarget & { storeId: string }> {
  const { url, pending } = await channel.connect!.start({ state: "st", redirectUri, query: {} });
  expect(new URL(url).searchParams.get("redirect_uri")).toBe(standin.env.EBAY_RU_NAME);
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  const account = await channel.connect!.finish({
    params: Object.fromEntries(back.searchParams),
    pending,
    redirectUri,
    signal: AbortSignal.timeout(3_000),
  });
  expect(account.credentials).toMatchObject({
    accessToken: anyOf(String),
    refreshToken: anyOf(String),
    expiresAt: anyOf(Number),
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

test("settings: every missing one is named, by checkSettings and before any call", async () => {
  expect(channel.checkSettings({ marketplaceId: "EBAY_US" })).toEqual([
    "categoryId is required",
    "merchantLocationKey is required",
    "paymentPolicyId is required",
    "returnPolicyId is required",
    "fulfillmentPolicyId is required",
  ]);
  expect(channel.checkSettings(SETTINGS)).toEqual([]);
  const dest = { ...(await connectSeller()), settings: { marketplaceId: "EBAY_US" } };
  const error = await failureOf(channel.adapter.publish(publishInput(dest, product())));
  expect(error).toMatchObject({ kind: "validation", field: "settings" });
  expect((error as Error).message).toMatch(/categoryId is required/);
  expect(standin.store(dest.storeId).counts.requests).toBe(0);
});

test("a single-SKU product: inventory item, offer, publish; publishing again revises the same listing", async () => {
  const dest = await connectSeller();
  const prod = product({ variants: [] });
  const first = await channel.adapter.publish(publishInput(dest, prod));
  expect(first.remoteUrl).toBe(`https://www.ebay.com/itm/${first.remoteId}`);
  const again = await channel.adapter.publish(
    publishInput(
      dest,
      { ...prod, title: "Stoneware Mug, large", priceAmount: "21.00" },
      { remoteId: first.remoteId },
    ),
  );
  expect(again.remoteId).toBe(first.remoteId);
  const { listings, counts } = standin.store(dest.storeId);
  expect(counts).toMatchObject({ create: 1, update: 1 });
  expect(listings).toEqual([
    expect.objectContaining({
      id: first.remoteId,
      sku: prod.sku,
      title: "Stoneware Mug, large",
      priceAmount: "21.00",
      imageCount: 1,
    }),
  ]);
  const raw = listings[0]!.raw as {
    item: { product: { aspects: unknown } };
    offers: { listingPolicies: unknown }[];
  };
  expect(raw.item.product.aspects).toEqual({ Brand: ["Acme"] });
  expect(raw.offers).toHaveLength(1);
});

test("variations: an item per SKU, an item group varying by the options, an offer per SKU, published as a group", async () => {
  const dest = await connectSeller();
  const prod = withVariants();
  const outcome = await channel.adapter.publish(publishInput(dest, prod));
  await channel.adapter.publish(publishInput(dest, prod, { remoteId: outcome.remoteId }));
  const [listing] = standin.store(dest.storeId).listings;
  expect(listing).toMatchObject({
    id: outcome.remoteId,
    sku: prod.sku,
    variantSkus: prod.variants.map((v) => v.sku),
    version: 2,
    priceAmount: "19.99",
  });
  const raw = listing!.raw as { item: { variesBy: unknown }; offers: unknown[] };
  expect(raw.item.variesBy).toEqual({
    specifications: [
      { name: "Size", values: ["S", "L"] },
      { name: "Color", values: ["Blue", "Red"] },
    ],
  });
  expect(raw.offers).toHaveLength(2);
});

test("eBay's limits: an 80-character title cut at a word, at most 24 images; no SKU gives up before any call", async () => {
  const dest = await connectSeller();
  await channel.adapter.publish(publishInput(dest, demanding()));
  const [listing] = standin.store(dest.storeId).listings;
  expect([...listing!.title].length).toBeLessThanOrEqual(80);
  expect(listing!.title.endsWith(" ")).toBe(false);
  expect(listing!.imageCount).toBe(24);
  // The item's description is at most 4,000 characters, markup counted, and still whole HTML; the
  // offer's has the room for all of it.
  const raw = listing!.raw as {
    item: { product: { description: string } };
    offers: { listingDescription: string }[];
  };
  expect(raw.item.product.description.length).toBeLessThanOrEqual(4_000);
  expect(raw.item.product.description).toMatch(
    /^<p>Grès émaillé, 350 ml\. 5 &lt; 6 &amp; "quotes"<\/p>.*<\/p>$/,
  );
  expect(raw.offers[0]!.listingDescription).toBe(demanding().description);
  const before = standin.store(dest.storeId).counts.requests;
  expect(
    await failureOf(channel.adapter.publish(publishInput(dest, product({ sku: null })))),
  ).toMatchObject({ kind: "validation", field: "sku" });
  expect(standin.store(dest.storeId).counts.requests).toBe(before);
});

test("eBay's errors: 429 waits, 5xx and resets retry, 401 is auth, a 400 gives up with eBay's message", async () => {
  const dest = await connectSeller();
  standin.setFault(dest.storeId, { kind: "throttle", retryAfterSeconds: 4, times: 1 });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toEqual(
    anyOf(ChannelWaitError),
  );
  standin.setFault(dest.storeId, { kind: "error", status: 500, times: 1 });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toBeInstanceOf(
    RetryableChannelError,
  );
  standin.setFault(dest.storeId, { kind: "reset", times: 1 });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toBeInstanceOf(
    RetryableChannelError,
  );
  standin.setFault(dest.storeId, { kind: "auth", times: 1 });
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toMatchObject({
    kind: "auth",
    status: 401,
  });
  standin.setFault(dest.storeId, {
    kind: "invalid",
    message: "The category 20625 is not a leaf category.",
    times: 1,
  });
  const invalid = await failureOf(channel.adapter.publish(publishInput(dest, product())));
  expect(invalid).toMatchObject({
    kind: "validation",
    status: 400,
    channelMessage: "The category 20625 is not a leaf category.",
  });
});

test("an expired token is refused with 401; the refresh token gives a new one that works; a revoked one is auth", async () => {
  const dest = await connectSeller();
  standin.expireAccessTokens(dest.storeId);
  expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toMatchObject({
    kind: "auth",
    status: 401,
  });
  const refreshed = await channel.adapter.refreshCredentials!(dest, AbortSignal.timeout(3_000));
  expect(refreshed).toMatchObject({
    refreshToken: dest.credentials.refreshToken,
    expiresAt: anyOf(Number),
  });
  expect(refreshed.accessToken).not.toBe(dest.credentials.accessToken);
  await channel.adapter.publish(publishInput({ ...dest, credentials: refreshed }, product()));
  const revoked = await failureOf(
    channel.adapter.refreshCredentials!(
      { ...dest, credentials: { ...refreshed, refreshToken: "revoked" } },
      AbortSignal.timeout(3_000),
    ),
  );
  expect(revoked).toMatchObject({ kind: "auth" });
});

test("a refused authorization is a 403 of the connect flow", async () => {
  standin.denyNextAuthorization();
  const { url, pending } = await channel.connect!.start({ state: "st", redirectUri, query: {} });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  expect(
    await failureOf(
      channel.connect!.finish({
        params: Object.fromEntries(back.searchParams),
        pending,
        redirectUri,
        signal: AbortSignal.timeout(3_000),
      }),
    ),
  ).toMatchObject({ status: 403 });
});

(contracts ? test : test.skip)(
  "contract: every request the adapter sent kept to eBay's Sell Inventory file; a broken one is caught",
  async () => {
    expect(standin.violations).toEqual([]);
    const dest = await connectSeller();
    const res = await fetch(`${standin.url}/sell/inventory/v1/inventory_item/SKU-1`, {
      method: "PUT",
      body: JSON.stringify({ product: { title: "x", aspects: { Brand: "Acme" } } }),
      headers: {
        authorization: `Bearer ${String(dest.credentials.accessToken)}`,
        "content-type": "application/json",
      },
    });
    expect(res.status).toBe(400);
    const [violation] = standin.violations.splice(0);
    expect(violation!.problems).toEqual(
      expect.arrayContaining([
        "body/product/aspects/Brand must be array",
        "header must have required property 'content-language'",
      ]),
    );
  },
);

describe("the settings' choices from the seller's account", () => {
  const options = (dest: DestinationTarget, field: string, query = "") =>
    channel.adapter.settingsOptions!({
      destination: dest,
      field,
      query,
      signal: AbortSignal.timeout(3_000),
    });

  test("the fields say where their values come from", () => {
    const choices = Object.fromEntries(channel.settingsFields.map((f) => [f.name, f.choices]));
    expect(choices).toEqual({
      marketplaceId: "list",
      categoryId: "search",
      merchantLocationKey: "list",
      paymentPolicyId: "list",
      returnPolicyId: "list",
      fulfillmentPolicyId: "list",
      contentLanguage: null,
      currency: null,
      condition: null,
    });
  });

  test("policies of the store's marketplace, locations and categories, read as eBay answers them", async () => {
    const dest = await connectSeller();
    expect(await options(dest, "paymentPolicyId")).toEqual([
      { value: "pay-1", label: "Immediate payment", detail: "Card or PayPal, paid at once" },
      { value: "pay-2", label: "Invoice within 3 days", detail: "For bulk buyers" },
    ]);
    expect((await options(dest, "returnPolicyId")).map((o) => o.value)).toEqual(["ret-1", "ret-2"]);
    expect((await options(dest, "fulfillmentPolicyId")).map((o) => o.value)).toEqual([
      "ful-1",
      "ful-2",
    ]);
    // Another marketplace has its own policies; one where the seller has none lists none.
    const gb = { ...dest, settings: { marketplaceId: "EBAY_GB" } };
    expect((await options(gb, "paymentPolicyId")).map((o) => o.value)).toEqual(["pay-gb-1"]);
    expect(
      await options({ ...dest, settings: { marketplaceId: "EBAY_DE" } }, "returnPolicyId"),
    ).toEqual([]);
    // A store without a marketplace yet is offered the US site's.
    expect((await options({ ...dest, settings: {} }, "paymentPolicyId"))[0]!.value).toBe("pay-1");

    expect(await options(dest, "merchantLocationKey")).toEqual([
      { value: "warehouse-1", label: "Main warehouse", detail: "Austin, TX, US" },
      { value: "harbour-shop", label: "Harbour shop", detail: "Bristol, GB" },
    ]);
    expect(await options(dest, "categoryId", "athletic shoes")).toEqual([
      {
        value: "15709",
        label: "Athletic Shoes",
        detail: "Clothing, Shoes & Accessories > Men > Men's Shoes",
      },
      {
        value: "95672",
        label: "Athletic Shoes",
        detail: "Clothing, Shoes & Accessories > Women > Women's Shoes",
      },
    ]);
    // eBay's 204: no suggestion for these words.
    expect(await options(dest, "categoryId", "zeppelin")).toEqual([]);
    // Marketplaces are our own list: no call.
    const before = standin.store(dest.storeId).counts.requests;
    expect(await options(dest, "marketplaceId")).toContainEqual({
      value: "EBAY_GB",
      label: "United Kingdom (ebay.co.uk)",
      detail: "prices in GBP",
    });
    expect(standin.store(dest.storeId).counts.requests).toBe(before);
    expect(standin.store(dest.storeId).counts.routes).toMatchObject({
      "GET /sell/account/v1/payment_policy": 3,
      "GET /location": 1,
      "GET /commerce/taxonomy/v1/get_default_category_tree_id": 2,
      "GET /commerce/taxonomy/v1/category_tree/{id}/get_category_suggestions": 2,
    });
    if (contracts) expect(standin.violations).toEqual([]);
  });

  test("eBay's refusals are the channel's error classes, as for a publish", async () => {
    const dest = await connectSeller();
    standin.setFault(dest.storeId, { kind: "error", status: 500, times: 1 });
    expect(await failureOf(options(dest, "paymentPolicyId"))).toBeInstanceOf(RetryableChannelError);
    standin.setFault(dest.storeId, { kind: "auth", times: 1 });
    expect(await failureOf(options(dest, "merchantLocationKey"))).toMatchObject({
      kind: "auth",
      status: 401,
    });
    standin.setFault(dest.storeId, { kind: "throttle", retryAfterSeconds: 4, times: 1 });
    expect(await failureOf(options(dest, "categoryId", "mugs"))).toEqual(anyOf(ChannelWaitError));
    // A marketplace eBay has no category tree for: eBay's 400, in its words.
    expect(
      await failureOf(
        options({ ...dest, settings: { marketplaceId: "EBAY_XX" } }, "categoryId", "mugs"),
      ),
    ).toMatchObject({ kind: "validation", status: 400 });
  });
});
