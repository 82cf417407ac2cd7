// A dry run's checks are the adapters' own: for every channel, the first problem its preflight
// lists is the one its publish gives up with before any call, and a product it accepts gives none.
import {
  createChannelRegistry,
  GiveUpChannelError,
  problemOf,
  type ChannelName,
  type DestinationTarget,
  type PublishableProduct,
} from "../src/index.js";
import { channelsConfigFrom } from "./channels-env.js";
import { product, publishInput } from "./fixtures.js";
import { stringMatching } from "@catalog/test-support/matchers";

// Store addresses on loopback allowed, as in development: the one here is never reached.
const registry = createChannelRegistry(channelsConfigFrom({ CHANNEL_PRIVATE_URLS: "true" }), {
  timeoutMs: 1_000,
});

const SETTINGS: Partial<Record<ChannelName, Record<string, unknown>>> = {
  shopify: {},
  woocommerce: {},
  standin: {},
  ebay: {
    marketplaceId: "EBAY_US",
    categoryId: "31388",
    merchantLocationKey: "wh-1",
    paymentPolicyId: "p",
    returnPolicyId: "r",
    fulfillmentPolicyId: "f",
  },
  etsy: { shopId: 1, taxonomyId: 1633, readinessStateId: 7 },
};
const CHANNELS = ["shopify", "woocommerce", "standin", "ebay", "etsy"] as const;

// Nothing listens there: a publish that got as far as a call would fail otherwise than by giving
// up.
const target = (channel: ChannelName, settings = SETTINGS[channel] ?? {}): DestinationTarget => ({
  id: `dest-${channel}`,
  channel,
  baseUrl: "http://127.0.0.1:9",
  credentials: { accessToken: "t", token: "t", consumerKey: "k", consumerSecret: "s" },
  settings,
});
const preflight = (channel: ChannelName, p: PublishableProduct, destination = target(channel)) =>
  registry
    .channel(channel)
    .preflight({ product: p, destination, signal: AbortSignal.timeout(1_000) });

const options = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`o${i}`, "x"]));
const BAD: [string, PublishableProduct][] = [
  ["no title", product({ title: " " })],
  ["no price", product({ priceAmount: null, variants: [] })],
  ["no SKU", product({ sku: null })],
  ["a free product", product({ priceAmount: "0.0000" })],
  ["a variant without SKU", product({ variants: [{ sku: null, options: { color: "red" } }] })],
  ["four variant options", product({ variants: [{ sku: "V-1", options: options(4) }] })],
];

describe.each(CHANNELS)("%s", (channel) => {
  test.each(BAD)(
    "%s: the publish gives up with the preflight's first problem",
    async (_name, p) => {
      const problems = await preflight(channel, p);
      const publishing = registry.adapter(channel).publish(publishInput(target(channel), p));
      if (problems.length === 0)
        return void (await publishing.catch((error: unknown) =>
          expect(error).not.toBeInstanceOf(GiveUpChannelError),
        ));
      const error = await publishing.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(GiveUpChannelError);
      expect(problemOf(error as GiveUpChannelError)).toEqual(problems[0]);
    },
  );

  test("a complete product on a complete destination has no problem", async () => {
    expect(
      await preflight(
        channel,
        product({ variants: [{ sku: "V-1", priceAmount: "21.50", options: { color: "blue" } }] }),
      ),
    ).toEqual([]);
  });
});

test("each channel names what it needs of a product", async () => {
  const found = async (p: PublishableProduct) =>
    Object.fromEntries(
      await Promise.all(
        CHANNELS.map(async (c) => [c, (await preflight(c, p)).map((x) => x.field)] as const),
      ),
    );
  expect(await found(product({ title: "", priceAmount: null, variants: [] }))).toEqual({
    shopify: ["title", "price"],
    woocommerce: ["title", "price"],
    standin: ["title", "price"],
    ebay: ["title", "price"],
    etsy: ["title", "price"],
  });
  expect(await found(product({ sku: null, priceAmount: "0" }))).toEqual({
    shopify: [],
    woocommerce: [],
    standin: [],
    ebay: ["price", "sku"],
    etsy: ["price"],
  });
  expect(await found(product({ variants: [{ sku: "V", options: options(3) }] }))).toMatchObject({
    shopify: [],
    etsy: ["variants.options"],
  });
  expect((await preflight("ebay", product({ sku: null })))[0]).toEqual({
    field: "sku",
    message: "sku is required: eBay keys every listing by SKU",
  });
});

test("settings problems come first, each naming its setting, with the product's after them", async () => {
  const problems = await preflight(
    "ebay",
    product({ title: "" }),
    target("ebay", { marketplaceId: "EBAY_US", categoryId: " " }),
  );
  expect(problems.map((p) => p.field)).toEqual([
    "settings.categoryId",
    "settings.merchantLocationKey",
    "settings.paymentPolicyId",
    "settings.returnPolicyId",
    "settings.fulfillmentPolicyId",
    "title",
  ]);
  expect(problems[1]).toEqual({
    field: "settings.merchantLocationKey",
    message: "merchantLocationKey is required",
  });
  expect(
    await preflight(
      "etsy",
      product(),
      target("etsy", { shopId: 1, taxonomyId: "abc", readinessStateId: 7 }),
    ),
  ).toEqual([
    { field: "settings.taxonomyId", message: 'taxonomyId must be a positive integer, not "abc"' },
  ]);
  expect(
    await preflight(
      "ebay",
      product(),
      target("ebay", { ...SETTINGS.ebay, marketplaceId: "EBAY_XX" }),
    ),
  ).toEqual([
    {
      field: "settings.marketplaceId",
      message: stringMatching(/^marketplaceId EBAY_XX is not one we know the language of/),
    },
  ]);
});

test("a destination without a store address is named", async () => {
  expect(await preflight("shopify", product(), { ...target("shopify"), baseUrl: null })).toEqual([
    { field: "destination", message: "the destination has no store address: connect it again" },
  ]);
});
