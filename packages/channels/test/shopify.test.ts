import { sharedInput } from "@catalog/test-support/shared-inputs";
import { channelsConfigFrom } from "./channels-env.js";
import {
  ChannelWaitError,
  ConnectError,
  createChannelRegistry,
  GiveUpChannelError,
  RetryableChannelError,
  type DestinationTarget,
} from "../src/index.js";
import {
  sharedContractsDir,
  startShopifyStandin,
  type ChannelStandin,
} from "../src/standins/index.js";
import { loadGraphqlContract } from "../src/standins/contract/graphql-contract.js";
import {
  PRODUCT_BY_SKU,
  PRODUCT_SET,
  productSetInput,
  SHOP_CHECK,
  shopifyHandle,
} from "../src/shopify/shopify-documents.js";
import { demanding, failureOf, withVariants } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";

let standin: ChannelStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
// The channel's published contract (../shared/contracts); with CI set, its absence fails the run.
const contracts = sharedInput({
  what: "the channels' contracts",
  path: sharedContractsDir(),
  expectedAt: "../shared/contracts (or SHARED_CONTRACTS_DIR)",
  tests: "Shopify's contract checks",
});

beforeAll(async () => {
  standin = await startShopifyStandin();
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 3_000 }).channel(
    "shopify",
  );
}, 20_000);
afterAll(() => standin.close());
afterEach(() => standin.clearFaults());

let shops = 0;
/** A shop connected through the stand-in's OAuth pages, as the gateway would. */
async function connectShop(): Promise<DestinationTarget & { shop: string }> {
  const shop = `shop-${++shops}-${Date.now()}.myshopify.com`;
  const redirectUri = "https://catalog.example/api/integrations/shopify/callback";
  const { url, pending } = await channel.connect!.start({
    state: "st-1",
    redirectUri,
    query: { shop },
  });
  const approved = await fetch(url, { redirect: "manual" });
  const back = new URL(approved.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  const account = await channel.connect!.finish({
    params: Object.fromEntries(back.searchParams),
    pending,
    redirectUri,
    signal: AbortSignal.timeout(3_000),
  });
  expect(account).toMatchObject({ name: shop, externalId: shop, settings: {} });
  return {
    id: `dest-${shop}`,
    channel: "shopify",
    baseUrl: account.baseUrl,
    credentials: account.credentials,
    settings: account.settings,
    shop,
  };
}

describe("connect", () => {
  test("the signed callback gives a token that publishing works with", async () => {
    const dest = await connectShop();
    expect(dest.credentials.accessToken).toEqual(expect.any(String));
    await channel.adapter.publish(publishInput(dest, product()));
    expect(standin.store(dest.shop).listings).toHaveLength(1);
  });

  test("a shop outside myshopify.com, a forged hmac and a refusal are refused", async () => {
    expect(
      await failureOf(
        channel.connect!.start({
          state: "s",
          redirectUri: "https://x/cb",
          query: { shop: "evil.example" },
        }),
      ),
    ).toMatchObject({ status: 422 });
    const { url, pending } = await channel.connect!.start({
      state: "s",
      redirectUri: "https://x/cb",
      query: { shop: "forge.myshopify.com" },
    });
    const params = Object.fromEntries(
      new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!).searchParams,
    );
    const forged = await failureOf(
      channel.connect!.finish({
        params: { ...params, code: "other" },
        pending,
        redirectUri: "https://x/cb",
        signal: AbortSignal.timeout(3_000),
      }),
    );
    expect(forged).toBeInstanceOf(ConnectError);
    expect(forged).toMatchObject({ status: 401 });
    const wrongShop = await failureOf(
      channel.connect!.finish({
        params,
        pending: { shop: "other.myshopify.com" },
        redirectUri: "https://x/cb",
        signal: AbortSignal.timeout(3_000),
      }),
    );
    expect(wrongShop).toMatchObject({ status: 403 });
    standin.denyNextAuthorization();
    const denied = Object.fromEntries(
      new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!).searchParams,
    );
    expect(
      await failureOf(
        channel.connect!.finish({
          params: denied,
          pending,
          redirectUri: "https://x/cb",
          signal: AbortSignal.timeout(3_000),
        }),
      ),
    ).toMatchObject({ status: 403 });
  });
});

describe("publish", () => {
  test("creates with variants and options, then updates the same product; a lookup by SKU adopts", async () => {
    const dest = await connectShop();
    const prod = withVariants();
    const first = await channel.adapter.publish(publishInput(dest, prod));
    expect(first.remoteId).toMatch(/^gid:\/\/shopify\/Product\/\d+$/);
    expect(first.remoteUrl).toBe(
      `${dest.baseUrl}/admin/products/${first.remoteId.split("/").pop()}`,
    );
    const again = await channel.adapter.publish(
      publishInput(dest, { ...prod, title: "Renamed" }, { remoteId: first.remoteId }),
    );
    expect(again.remoteId).toBe(first.remoteId);
    // No stored id: the product is found by its variants' SKU and updated, not duplicated.
    const adopted = await channel.adapter.publish(
      publishInput(dest, { ...prod, sku: null, title: "Adopted" }),
    );
    expect(adopted.remoteId).toBe(first.remoteId);
    const { listings, counts } = standin.store(dest.shop);
    expect(counts).toMatchObject({ create: 1, update: 2 });
    expect(listings).toEqual([
      expect.objectContaining({
        title: "Adopted",
        variantSkus: prod.variants.map((v) => v.sku),
        priceAmount: "19.99",
        imageCount: 1,
      }),
    ]);
    expect((listings[0]!.raw as { productOptions: unknown[] }).productOptions).toEqual([
      { name: "Size", values: [{ name: "S" }, { name: "L" }] },
      { name: "Color", values: [{ name: "Blue" }, { name: "Red" }] },
    ]);
  });

  test("a product deleted in the shop is created anew; a unicode, long, many-image product is kept to Shopify's limits", async () => {
    const dest = await connectShop();
    const outcome = await channel.adapter.publish(
      publishInput(dest, demanding(), { remoteId: "gid://shopify/Product/1" }),
    );
    expect(outcome.remoteId).not.toBe("gid://shopify/Product/1");
    const [listing] = standin.store(dest.shop).listings;
    expect([...listing!.title].length).toBeLessThanOrEqual(255);
    expect(listing!.imageCount).toBe(30);
    // Shopify takes HTML: the stored description goes as it is (plain text was escaped when
    // stored).
    expect(listing!.description).toBe(demanding().description);
    expect(listing!.description).toContain('<p>Grès émaillé, 350 ml. 5 &lt; 6 &amp; "quotes"</p>');
  });

  test("a first publish repeated before its id was saved (or of a product without SKUs) updates the product it made", async () => {
    const dest = await connectShop();
    const prod = product({ sku: null, variants: [], title: "Tasse à café ☕ Édition" });
    const first = await channel.adapter.publish(publishInput(dest, prod));
    const again = await channel.adapter.publish(
      publishInput(dest, { ...prod, description: "<p>Holds 400 ml.</p>" }),
    );
    expect(again.remoteId).toBe(first.remoteId);
    const { listings, counts } = standin.store(dest.shop);
    expect(counts).toMatchObject({ create: 1, update: 1 });
    expect(listings).toEqual([expect.objectContaining({ title: "Tasse à café ☕ Édition" })]);
    expect((listings[0]!.raw as { descriptionHtml: string }).descriptionHtml).toBe(
      "<p>Holds 400 ml.</p>",
    );
    // The handle reads like the title and is the same for every attempt of this product.
    expect((listings[0]!.raw as { handle: string }).handle).toBe(shopifyHandle(prod));
    expect(shopifyHandle(prod)).toMatch(/^tasse-a-cafe-edition-[0-9a-f]{10}$/);
    expect(shopifyHandle({ ...prod, title: "珈琲カップ" })).toMatch(/^product-[0-9a-f]{10}$/);
  });

  test("a missing price or title gives up before any request", async () => {
    const dest = await connectShop();
    const before = standin.store(dest.shop).counts.requests;
    expect(
      await failureOf(
        channel.adapter.publish(publishInput(dest, product({ priceAmount: null, variants: [] }))),
      ),
    ).toMatchObject({ kind: "validation", field: "priceAmount" });
    expect(
      await failureOf(channel.adapter.publish(publishInput(dest, product({ title: " " })))),
    ).toMatchObject({ kind: "validation", field: "title" });
    expect(standin.store(dest.shop).counts.requests).toBe(before);
  });

  test("THROTTLED in a 200 is a wait of the time the bucket needs; 5xx retry; 401 auth; userErrors give up with the field", async () => {
    const dest = await connectShop();
    standin.setFault(dest.shop, { kind: "throttle", retryAfterSeconds: 3, times: 1 });
    const throttled = await failureOf(channel.adapter.publish(publishInput(dest, product())));
    expect(throttled).toBeInstanceOf(ChannelWaitError);
    expect((throttled as ChannelWaitError).retryAfterMs).toBeGreaterThanOrEqual(2_500);
    expect((throttled as ChannelWaitError).retryAfterMs).toBeLessThanOrEqual(3_500);
    standin.setFault(dest.shop, { kind: "error", status: 502, times: 1 });
    expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toBeInstanceOf(
      RetryableChannelError,
    );
    standin.setFault(dest.shop, { kind: "reset", times: 1 });
    expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toBeInstanceOf(
      RetryableChannelError,
    );
    standin.setFault(dest.shop, { kind: "auth", times: 1 });
    expect(await failureOf(channel.adapter.publish(publishInput(dest, product())))).toMatchObject({
      kind: "auth",
      status: 401,
    });
    standin.setFault(dest.shop, {
      kind: "invalid",
      message: "Handle has already been taken",
      field: "handle",
      times: 1,
    });
    const refused = await failureOf(
      channel.adapter.publish(publishInput(dest, product({ sku: null }))),
    );
    expect(refused).toBeInstanceOf(GiveUpChannelError);
    expect(refused).toMatchObject({
      kind: "validation",
      field: "handle",
      channelMessage: "Handle has already been taken",
    });
  });
});

(contracts ? describe : describe.skip)("contract", () => {
  test("every document we send validates against Shopify's schema, and a wrong one is caught", async () => {
    expect(standin.violations).toEqual([]);
    const schema = await loadGraphqlContract(`${contracts}/shopify/admin_2026-10.graphql`);
    expect(schema.check(PRODUCT_SET)).toEqual([]);
    expect(schema.check(PRODUCT_BY_SKU)).toEqual([]);
    expect(schema.check(SHOP_CHECK)).toEqual([]);
    expect(
      schema
        .check(
          PRODUCT_SET.replace(
            "userErrors { field message code }",
            "userErrors { field message severity }",
          ),
        )
        .join(),
    ).toMatch(/severity/);
    // Variables are held to the input types too: what we send passes, a wrong enum, an unknown
    // field and two identifiers at once (ProductSetIdentifiers is @oneOf) do not.
    const input = productSetInput(withVariants());
    expect(
      schema.check(PRODUCT_SET, {
        identifier: { handle: "mug-1" },
        input: { ...input, handle: "mug-1" },
      }),
    ).toEqual([]);
    const wrong = schema
      .check(PRODUCT_SET, {
        identifier: { handle: "mug-1", id: "gid://shopify/Product/1" },
        input: {
          ...input,
          files: [{ originalSource: "https://img.example/a.jpg", contentType: "PICTURE" }],
          sku: "MUG-1",
        },
      })
      .join("\n");
    expect(wrong).toMatch(/PICTURE/);
    expect(wrong).toMatch(/"sku" is not defined|Unknown field "sku"|field "sku"/);
    expect(wrong).toMatch(/exactly one/i);
  }, 20_000);
});
