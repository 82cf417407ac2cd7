import { sharedInput } from "@catalog/test-support/shared-inputs";
import {
  ChannelWaitError,
  GiveUpChannelError,
  RetryableChannelError,
  type DestinationTarget,
} from "../src/index.js";
import { sharedContractsDir } from "../src/standins/index.js";
import type { Attributes } from "../src/amazon/amazon-standin-product-types.js";
import { failureOf, withVariants } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";
import { redirectUri, useAmazon } from "./amazon-seller.js";
import { anyOf, stringMatching } from "@catalog/test-support/matchers";

const amazon = useAmazon();
// The channel's published contract (../shared/contracts); with CI set, its absence fails the run.
sharedInput({
  what: "the channels' contracts",
  path: sharedContractsDir(),
  expectedAt: "../shared/contracts (or SHARED_CONTRACTS_DIR)",
  tests: "Amazon's contract checks",
});

type Raw = {
  item: { attributes: Attributes };
  children: { sku: string; attributes: Attributes }[];
};

/**
 * A seller connected through the consent page and LWA's token endpoint, with a product type chosen.
 */
async function connectSeller(
  productType = "HOME",
): Promise<DestinationTarget & { storeId: string }> {
  const { url, pending } = await amazon.channel.connect!.start({
    state: "st-1",
    redirectUri,
    query: { marketplaceId: "ATVPDKIKX0DER" },
  });
  const consent = new URL(url);
  expect(consent.pathname).toBe("/apps/authorize/consent");
  expect(Object.fromEntries(consent.searchParams)).toMatchObject({
    application_id: amazon.standin.env.AMAZON_APP_ID,
    state: "st-1",
    version: "beta",
    redirect_uri: redirectUri,
  });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  expect([...back.searchParams.keys()].sort()).toEqual([
    "selling_partner_id",
    "spapi_oauth_code",
    "state",
  ]);
  const account = await amazon.channel.connect!.finish({
    params: Object.fromEntries(back.searchParams),
    pending,
    redirectUri,
    signal: AbortSignal.timeout(3_000),
  });
  const sellerId = back.searchParams.get("selling_partner_id")!;
  expect(account).toMatchObject({
    externalId: sellerId,
    settings: { sellerId, marketplaceId: "ATVPDKIKX0DER" },
  });
  expect(account.credentials).toMatchObject({
    accessToken: anyOf(String),
    refreshToken: anyOf(String),
    expiresAt: anyOf(Number),
  });
  return {
    id: `d-${sellerId}`,
    channel: "amazon",
    baseUrl: account.baseUrl,
    credentials: account.credentials,
    settings: { ...account.settings, productType },
    storeId: sellerId,
  };
}

test("connect: a refused consent and a bad marketplace id are refused with their reason", async () => {
  await expect(
    amazon.channel.connect!.start({
      state: "s",
      redirectUri,
      query: { marketplaceId: "amazon.com" },
    }),
  ).rejects.toMatchObject({ status: 422 });
  amazon.standin.denyNextAuthorization();
  const { url, pending } = await amazon.channel.connect!.start({
    state: "s",
    redirectUri,
    query: {},
  });
  const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  await expect(
    amazon.channel.connect!.finish({
      params: Object.fromEntries(back.searchParams),
      pending,
      redirectUri,
      signal: AbortSignal.timeout(3_000),
    }),
  ).rejects.toMatchObject({ status: 403 });
});

test("settings: each missing one is named, before any call", async () => {
  expect(amazon.channel.checkSettings({ sellerId: "A1", marketplaceId: "ATVPDKIKX0DER" })).toEqual([
    "productType is required",
  ]);
  expect(
    amazon.channel.checkSettings({
      sellerId: "A1",
      marketplaceId: "A2Q3Y263D00KWC",
      productType: "HOME",
    }),
  ).toEqual([stringMatching(/currency and languageTag/)]);
  const dest = await connectSeller();
  const error = await failureOf(
    amazon.channel.adapter.publish(
      publishInput(
        { ...dest, settings: { sellerId: dest.storeId, marketplaceId: "ATVPDKIKX0DER" } },
        product(),
      ),
    ),
  );
  expect(error).toMatchObject({ kind: "validation", field: "settings" });
  expect(amazon.standin.store(dest.storeId).counts.requests).toBe(0);
});

test("a single SKU is put with its offer, then patched: one listing, price and quantity in the offer attributes", async () => {
  const dest = await connectSeller();
  const prod = product({ variants: [] });
  const saved: string[] = [];
  const first = await amazon.channel.adapter.publish(
    publishInput(dest, prod, { saveRemoteId: async (id) => void saved.push(id) }),
  );
  expect(first.remoteId).toBe(prod.sku);
  expect(saved).toEqual([prod.sku]);
  const again = await amazon.channel.adapter.publish(
    publishInput(
      dest,
      {
        ...prod,
        title: "Stoneware Mug, large",
        priceAmount: "21.0000",
        availability: "OutOfStock",
      },
      { remoteId: first.remoteId },
    ),
  );
  expect(again.remoteId).toBe(first.remoteId);
  const { listings, counts } = amazon.standin.store(dest.storeId);
  expect(counts).toMatchObject({ create: 1, update: 1 });
  expect(listings).toEqual([
    expect.objectContaining({
      sku: prod.sku,
      title: "Stoneware Mug, large",
      priceAmount: "21.00",
      variantSkus: [],
    }),
  ]);
  const { attributes } = (listings[0]!.raw as Raw).item;
  expect(attributes.purchasable_offer).toEqual([
    {
      currency: "USD",
      marketplace_id: "ATVPDKIKX0DER",
      our_price: [{ schedule: [{ value_with_tax: 21 }] }],
    },
  ]);
  expect(attributes.fulfillment_availability).toEqual([
    { fulfillment_channel_code: "DEFAULT", quantity: 0 },
  ]);
  expect(attributes.externally_assigned_product_identifier).toEqual([
    { type: "ean", value: prod.gtin, marketplace_id: "ATVPDKIKX0DER" },
  ]);
});

test("variations: a parent SKU without an offer and a child SKU per variation, related to it", async () => {
  const dest = await connectSeller();
  const prod = withVariants();
  await amazon.channel.adapter.publish(publishInput(dest, prod));
  const [listing] = amazon.standin.store(dest.storeId).listings;
  expect(listing).toMatchObject({ sku: prod.sku, variantSkus: prod.variants.map((v) => v.sku) });
  const raw = listing!.raw as Raw;
  expect(raw.item.attributes).toMatchObject({
    parentage_level: [{ value: "parent" }],
    variation_theme: [{ name: "SIZE/COLOR" }],
  });
  expect(raw.item.attributes.purchasable_offer).toBeUndefined();
  const red = raw.children.find((c) => c.sku.endsWith("-L-RD"))!;
  expect(red.attributes).toMatchObject({
    parentage_level: [{ value: "child" }],
    child_parent_sku_relationship: [{ child_relationship_type: "variation", parent_sku: prod.sku }],
    color: [{ value: "Red" }],
    size: [{ value: "L" }],
    purchasable_offer: [{ our_price: [{ schedule: [{ value_with_tax: 24.5 }] }] }],
  });
});

test("the product type's definition: a required attribute the product lacks gives up naming it, before any listing request", async () => {
  const dest = await connectSeller("DRINKING_CUP");
  const error = await failureOf(
    amazon.channel.adapter.publish(publishInput(dest, product({ variants: [], attributes: {} }))),
  );
  expect(error).toBeInstanceOf(GiveUpChannelError);
  expect(error).toMatchObject({
    kind: "validation",
    field: "material",
    channelMessage: stringMatching(/DRINKING_CUP requires material/),
  });
  expect(amazon.standin.store(dest.storeId).listings).toEqual([]);
  // The product's own attribute of that name fills it.
  await amazon.channel.adapter.publish(
    publishInput(dest, product({ variants: [], attributes: { material: "stoneware" } })),
  );
  expect(amazon.standin.store(dest.storeId).listings).toHaveLength(1);

  const unknown = await failureOf(
    amazon.channel.adapter.publish(
      publishInput(
        { ...dest, settings: { ...dest.settings, productType: "NO_SUCH_TYPE" } },
        product(),
      ),
    ),
  );
  expect(unknown).toMatchObject({ kind: "validation", field: "productType" });
});

test("INVALID with issues: the listing's error names each attribute", async () => {
  const dest = await connectSeller();
  // the definition is cached from here
  await amazon.channel.adapter.publish(publishInput(dest, product({ variants: [] })));
  amazon.standin.setFault(dest.storeId, {
    kind: "invalid",
    message: "'brand' value 'Acme' is not an approved brand.",
    field: "brand",
    times: 1,
  });
  const error = await failureOf(
    amazon.channel.adapter.publish(publishInput(dest, product({ variants: [] }))),
  );
  expect(error).toMatchObject({
    kind: "validation",
    field: "brand",
    channelMessage: "brand: 'brand' value 'Acme' is not an approved brand.",
  });
  const cheap = await failureOf(
    amazon.channel.adapter.publish(
      publishInput(dest, product({ variants: [], priceAmount: "0.0000" })),
    ),
  );
  expect(cheap).toMatchObject({
    kind: "validation",
    field: "purchasable_offer",
    channelMessage: stringMatching(/^purchasable_offer: The price must be/),
  });
});

test("429 waits (Retry-After, else one request at x-amzn-RateLimit-Limit), 5xx retries, an expired token is an auth refusal that a refresh mends", async () => {
  const dest = await connectSeller();
  amazon.standin.setFault(dest.storeId, { kind: "throttle", retryAfterSeconds: 7, times: 1 });
  expect(
    await failureOf(amazon.channel.adapter.publish(publishInput(dest, product({ variants: [] })))),
  ).toMatchObject({ outcome: "wait", retryAfterMs: 7_000 });
  amazon.standin.setFault(dest.storeId, { kind: "throttle", times: 1 });
  const paced = await failureOf(
    amazon.channel.adapter.publish(publishInput(dest, product({ variants: [] }))),
  );
  expect(paced).toBeInstanceOf(ChannelWaitError);
  expect(paced).toMatchObject({ status: 429, retryAfterMs: 1_000 });
  amazon.standin.setFault(dest.storeId, { kind: "error", status: 503, times: 1 });
  expect(
    await failureOf(amazon.channel.adapter.publish(publishInput(dest, product({ variants: [] })))),
  ).toBeInstanceOf(RetryableChannelError);

  amazon.standin.expireAccessTokens(dest.storeId);
  expect(
    await failureOf(amazon.channel.adapter.publish(publishInput(dest, product({ variants: [] })))),
  ).toMatchObject({ kind: "auth", status: 401 });
  const credentials = await amazon.channel.adapter.refreshCredentials!(
    dest,
    AbortSignal.timeout(3_000),
  );
  expect(credentials.accessToken).not.toBe(dest.credentials.accessToken);
  await amazon.channel.adapter.publish(
    publishInput({ ...dest, credentials }, product({ variants: [] })),
  );
});
