// A channel that answers success with something else (a proxy's page, a body without the id we
// need, a token answer without a token) fails with a clear, retryable ChannelError naming what was
// wrong: nothing crashes, and no `undefined` id or token reaches the caller.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ConnectError,
  createChannelRegistry,
  RetryableChannelError,
  type ChannelName,
  type DestinationTarget,
} from "../src/index.js";
import { channelsConfigFrom } from "./channels-env.js";
import { failureOf } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";

/** What the fake channel answers: status and body text for a method, path and request body. */
type Route = (method: string, path: string, body: string) => [number, string];

let server: Server;
let url: string;
let route: Route = () => [500, ""];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request
      .setEncoding("utf8")
      .on("data", (chunk: string) => (body += chunk))
      .on("end", () => {
        const [status, text] = route(request.method ?? "GET", request.url ?? "/", body);
        response.writeHead(status, { "content-type": "application/json" }).end(text);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const registry = () =>
  createChannelRegistry(
    channelsConfigFrom({
      CHANNEL_PRIVATE_URLS: "true",
      EBAY_API_URL: url,
      ETSY_API_URL: url,
      ETSY_CLIENT_ID: "etsy-app",
      SHOPIFY_SHOP_URL: `${url}/{shop}`,
    }),
    { timeoutMs: 3_000 },
  );

const EBAY_SETTINGS = {
  marketplaceId: "EBAY_US",
  categoryId: "20625",
  merchantLocationKey: "warehouse-1",
  paymentPolicyId: "pay-1",
  returnPolicyId: "ret-1",
  fulfillmentPolicyId: "ful-1",
};
const DESTINATIONS: Record<Exclude<ChannelName, "amazon">, () => DestinationTarget> = {
  shopify: () => ({
    id: "d",
    channel: "shopify",
    baseUrl: `${url}/acme.myshopify.com`,
    credentials: { accessToken: "shpat" },
    settings: {},
  }),
  ebay: () => ({
    id: "d",
    channel: "ebay",
    baseUrl: url,
    credentials: { accessToken: "t", refreshToken: "r" },
    settings: EBAY_SETTINGS,
  }),
  etsy: () => ({
    id: "d",
    channel: "etsy",
    baseUrl: url,
    credentials: { accessToken: "1.t", refreshToken: "r" },
    settings: { shopId: "7", taxonomyId: 1633, readinessStateId: 7 },
  }),
  woocommerce: () => ({
    id: "d",
    channel: "woocommerce",
    baseUrl: url,
    credentials: { consumerKey: "ck", consumerSecret: "cs" },
    settings: {},
  }),
  standin: () => ({
    id: "d",
    channel: "standin",
    baseUrl: url,
    credentials: { token: "s:x" },
    settings: {},
  }),
};

const simple = () => product({ images: [], variants: [] });
const json = (value: unknown) => JSON.stringify(value);

type Case = [string, Exclude<ChannelName, "amazon">, Route, RegExp];
const cases: Case[] = [
  [
    "shopify: a productSet without the product's id",
    "shopify",
    (_m, _p, body) =>
      body.includes("productVariants")
        ? [200, json({ data: { productVariants: { nodes: [] } } })]
        : [200, json({ data: { productSet: { product: { handle: "mug" }, userErrors: [] } } })],
    /^shopify answered 200 with an unexpected productSet result: \/productSet\/product must have required properties id$/,
  ],
  [
    "shopify: a lookup by SKU whose product has no id",
    "shopify",
    () => [200, json({ data: { productVariants: { nodes: [{ product: {} }] } } })],
    /^shopify answered 200 with an unexpected product lookup by SKU: \/productVariants\/nodes\/0\/product must have required properties id$/,
  ],
  [
    "shopify: GraphQL errors that are not a list",
    "shopify",
    () => [200, json({ errors: "boom" })],
    /^shopify answered 200 with an unexpected GraphQL answer: \/errors must be array$/,
  ],
  [
    "shopify: a proxy's HTML page",
    "shopify",
    () => [200, "<html>Bad gateway</html>"],
    /^shopify answered 200 with an unreadable body$/,
  ],
  [
    "ebay: a created offer without an offerId",
    "ebay",
    (method, path) =>
      path.startsWith("/sell/inventory/v1/offer?")
        ? [404, json({ errors: [] })]
        : method === "POST"
          ? [201, json({ warnings: [] })]
          : [204, ""],
    /^ebay answered 201 with an unexpected created offer: the answer must have required properties offerId$/,
  ],
  [
    "ebay: a listingId that is a number",
    "ebay",
    (method, path) =>
      path.startsWith("/sell/inventory/v1/offer?")
        ? [200, json({ offers: [{ offerId: "9", marketplaceId: "EBAY_US" }] })]
        : path.endsWith("/publish")
          ? [200, json({ listingId: 110 })]
          : [204, ""],
    /^ebay answered 200 with an unexpected published offer: \/listingId must be string$/,
  ],
  [
    "ebay: an offer list whose offers are not a list",
    "ebay",
    (_m, path) =>
      path.startsWith("/sell/inventory/v1/offer?")
        ? [200, json({ offers: { offerId: "9" } })]
        : [204, ""],
    /^ebay answered 200 with an unexpected offer list: \/offers must be array$/,
  ],
  [
    "etsy: a created listing whose id is text",
    "etsy",
    () => [201, json({ listing_id: "abc" })],
    /^etsy answered 201 with an unexpected created listing: \/listing_id must be integer$/,
  ],
  [
    "woocommerce: a product lookup that is not a list",
    "woocommerce",
    () => [200, json({ products: [] })],
    /^woocommerce answered 200 with an unexpected product list: the answer must be array$/,
  ],
  [
    "woocommerce: a created product without an id",
    "woocommerce",
    (method) => (method === "GET" ? [200, "[]"] : [201, json({ name: "Stoneware Mug" })]),
    /^woocommerce answered 201 with an unexpected product: the answer must have required properties id$/,
  ],
  [
    "standin: a created listing without an id",
    "standin",
    () => [201, json({ url: "https://x" })],
    /^standin answered 201 with an unexpected listing: the answer must have required properties id$/,
  ],
  [
    "standin: a cut body",
    "standin",
    () => [201, '{"id":"sl_1"'],
    /^standin answered 201 with an unreadable body$/,
  ],
];

test.each(cases)(
  "%s is a retryable ChannelError saying what was wrong, and no id is saved",
  async (_name, channel, answers, message) => {
    route = answers;
    const saved: string[] = [];
    const error = await failureOf(
      registry()
        .channel(channel)
        .adapter.publish(
          publishInput(DESTINATIONS[channel](), simple(), {
            saveRemoteId: async (id) => void saved.push(id),
          }),
        ),
    );
    expect(error).toBeInstanceOf(RetryableChannelError);
    expect(error).toMatchObject({ channel });
    expect((error as Error).message).toMatch(message);
    expect(saved).toEqual([]);
  },
);

test.each([
  [
    "ebay",
    { token_type: "User Access Token", expires_in: 7200 },
    /^ebay answered 200 with an unexpected token answer: the answer must have required properties access_token$/,
  ],
  [
    "etsy",
    { access_token: "1.new", expires_in: 3600 },
    /^etsy answered 200 with an unexpected token answer: the answer must have required properties refresh_token$/,
  ],
  [
    "ebay",
    { access_token: "", expires_in: 7200 },
    /^ebay answered 200 with an unexpected token answer: \/access_token must/,
  ],
] as const)(
  'a %s token refresh answered %j is retryable, never a token "undefined"',
  async (channel, answer, message) => {
    route = () => [200, json(answer)];
    const error = await failureOf(
      registry().channel(channel).adapter.refreshCredentials!(
        DESTINATIONS[channel](),
        AbortSignal.timeout(3_000),
      ),
    );
    expect(error).toBeInstanceOf(RetryableChannelError);
    expect((error as Error).message).toMatch(message);
  },
);

test("a well-formed token answer with fields of the channel's own is read as before", async () => {
  route = () => [
    200,
    json({
      access_token: "v^1.new",
      expires_in: "7200",
      token_type: "User Access Token",
      extra: { any: true },
    }),
  ];
  const credentials = await registry().channel("ebay").adapter.refreshCredentials!(
    DESTINATIONS.ebay(),
    AbortSignal.timeout(3_000),
  );
  expect(credentials).toMatchObject({ accessToken: "v^1.new", refreshToken: "r" });
  expect(credentials.expiresAt as number).toBeGreaterThan(Date.now() + 7_100_000);
});

test("a Shopify token check answered without the shop is a ConnectError naming the shop, not an account", async () => {
  route = () => [200, json({ data: { shop: null } })];
  const error = await failureOf(
    registry()
      .channel("shopify")
      .operatorAccount!.create(
        { shop: "acme.myshopify.com" },
        "shpat_1",
        AbortSignal.timeout(3_000),
      ),
  );
  expect(error).toBeInstanceOf(ConnectError);
  expect(error).toMatchObject({
    status: 502,
    message: "acme.myshopify.com answered 200 when the token was checked",
  });
});
