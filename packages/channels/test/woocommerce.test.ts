import { sharedInput } from "@catalog/test-support/shared-inputs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { channelsConfigFrom } from "./channels-env.js";
import {
  ChannelWaitError,
  createChannelRegistry,
  RetryableChannelError,
  type DestinationTarget,
} from "../src/index.js";
import {
  sharedContractsDir,
  startWoocommerceStandin,
  type WoocommerceStandin,
} from "../src/standins/index.js";
import { demanding, failureOf, withVariants } from "./channel-fixtures.js";
import { product, publishInput } from "./fixtures.js";

let standin: WoocommerceStandin;
let channel: ReturnType<ReturnType<typeof createChannelRegistry>["channel"]>;
// The channel's published contract (../shared/contracts); with CI set, its absence fails the run.
const contracts = sharedInput({
  what: "the channels' contracts",
  path: sharedContractsDir(),
  expectedAt: "../shared/contracts (or SHARED_CONTRACTS_DIR)",
  tests: "WooCommerce's contract checks",
});

beforeAll(async () => {
  standin = await startWoocommerceStandin();
  channel = createChannelRegistry(channelsConfigFrom(standin.env), { timeoutMs: 3_000 }).channel(
    "woocommerce",
  );
});
afterAll(() => standin.close());
afterEach(() => standin.clearFaults());

function storeDestination(): DestinationTarget & { storeId: string } {
  const { storeId, storeUrl, consumerKey, consumerSecret } = standin.createStore();
  return {
    id: `dest-${storeId}`,
    channel: "woocommerce",
    baseUrl: storeUrl,
    credentials: { consumerKey, consumerSecret },
    settings: {},
    storeId,
  };
}

describe("publish", () => {
  test("the store's address is checked on every publish: one that is (or now resolves to) a private address gets nothing", async () => {
    const dest = storeDestination();
    const production = createChannelRegistry(
      channelsConfigFrom({ ...standin.env, CHANNEL_PRIVATE_URLS: "false" }),
      { timeoutMs: 3_000 },
    ).channel("woocommerce");
    const error = await failureOf(
      production.adapter.publish(publishInput(dest, product({ variants: [] }))),
    );
    expect(error).toMatchObject({ kind: "validation", field: "baseUrl" });
    expect((error as Error).message).toMatch(
      /^woocommerce: the store's address cannot be used: .*loopback/,
    );
    expect(standin.store(dest.storeId).counts.requests).toBe(0);
  });

  test("a simple product is created once, then updated; a lookup by SKU adopts it", async () => {
    const dest = storeDestination();
    const saved: string[] = [];
    const prod = product({ variants: [] });
    const first = await channel.adapter.publish(
      publishInput(dest, prod, { saveRemoteId: async (id) => void saved.push(id) }),
    );
    expect(saved).toEqual([first.remoteId]);
    expect(first.remoteUrl).toMatch(/\/product\/\d+$/);
    await channel.adapter.publish(
      publishInput(dest, { ...prod, title: "Renamed" }, { remoteId: first.remoteId }),
    );
    const adopted = await channel.adapter.publish(
      publishInput(dest, { ...prod, title: "Adopted" }),
    );
    expect(adopted.remoteId).toBe(first.remoteId);
    const { listings, counts } = standin.store(dest.storeId);
    expect(counts).toMatchObject({ create: 1, update: 2 });
    expect(listings).toEqual([
      expect.objectContaining({
        title: "Adopted",
        sku: prod.sku,
        priceAmount: "19.99",
        imageCount: 1,
      }),
    ]);
    expect((listings[0]!.raw as { type: string }).type).toBe("simple");
  });

  test("a variable product gets its attributes and variations; a variant added and one removed are synced by SKU", async () => {
    const dest = storeDestination();
    const prod = withVariants();
    const first = await channel.adapter.publish(publishInput(dest, prod));
    let [listing] = standin.store(dest.storeId).listings;
    expect(listing!.variantSkus.sort()).toEqual(prod.variants.map((v) => v.sku).sort());
    expect((listing!.raw as { attributes: unknown[] }).attributes).toEqual([
      { name: "Size", position: 0, visible: true, variation: true, options: ["S", "L"] },
      { name: "Color", position: 1, visible: true, variation: true, options: ["Blue", "Red"] },
    ]);
    const changed = {
      ...prod,
      variants: [
        prod.variants[1]!,
        {
          sku: `${prod.sku}-M-GR`,
          title: "Medium green",
          priceAmount: "22.00",
          options: { Size: "M", Color: "Green" },
        },
      ],
    };
    await channel.adapter.publish(publishInput(dest, changed, { remoteId: first.remoteId }));
    [listing] = standin.store(dest.storeId).listings;
    expect(listing!.variantSkus.sort()).toEqual(changed.variants.map((v) => v.sku).sort());
    expect(standin.store(dest.storeId).listings).toHaveLength(1);
  });

  test("a unicode title, a 20,000-character description and 30 images arrive whole", async () => {
    const dest = storeDestination();
    const prod = demanding();
    await channel.adapter.publish(publishInput(dest, prod));
    const [listing] = standin.store(dest.storeId).listings;
    expect(listing).toMatchObject({ title: prod.title, imageCount: 30 });
    expect((listing!.raw as { description: string }).description).toBe(prod.description);
  });

  test("a stored id the store no longer knows leads to a new product; a missing price gives up before any request", async () => {
    const dest = storeDestination();
    const outcome = await channel.adapter.publish(
      publishInput(dest, product({ variants: [] }), { remoteId: "999999" }),
    );
    expect(outcome.remoteId).not.toBe("999999");
    const before = standin.store(dest.storeId).counts.requests;
    expect(
      await failureOf(channel.adapter.publish(publishInput(dest, product({ priceAmount: null })))),
    ).toMatchObject({ kind: "validation", field: "priceAmount" });
    expect(standin.store(dest.storeId).counts.requests).toBe(before);
  });

  test("faults in WooCommerce's shapes: 429 waits for Retry-After, 5xx and resets retry, 401 gives up as auth, 400 as validation", async () => {
    const dest = storeDestination();
    standin.setFault(dest.storeId, { kind: "throttle", retryAfterSeconds: 7, times: 1 });
    const wait = await failureOf(channel.adapter.publish(publishInput(dest, product())));
    expect(wait).toBeInstanceOf(ChannelWaitError);
    expect(wait).toMatchObject({ retryAfterMs: 7_000 });
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
      message: "Name is too long",
      field: "name",
      times: 1,
    });
    const invalid = await failureOf(channel.adapter.publish(publishInput(dest, product())));
    expect(invalid).toMatchObject({ kind: "validation", status: 400 });
    expect((invalid as Error).message).toMatch(/woocommerce answered 400: Invalid parameter/);
  });
});

describe("connect", () => {
  // Plays the gateway's callback: the store's server POSTs the keys here.
  let receiver: { url: string; posted: Record<string, unknown>[]; close(): void };
  beforeAll(async () => {
    const posted: Record<string, unknown>[] = [];
    const server = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => {
        if (req.method === "POST") posted.push(JSON.parse(text) as Record<string, unknown>);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    receiver = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
      posted,
      close: () => server.close(),
    };
  });
  afterAll(() => receiver.close());

  test("the store posts its keys to the callback, then sends the owner back; the keys publish", async () => {
    const { storeUrl, storeId } = standin.createStore();
    const { url, pending } = await channel.connect!.start({
      state: "state-123",
      redirectUri: receiver.url,
      query: { storeUrl: `${storeUrl}/` },
    });
    expect(pending).toEqual({ storeUrl });
    const back = await fetch(url, { redirect: "manual" });
    expect(new URL(back.headers.get("location")!).searchParams.get("success")).toBe("1");
    const keys = receiver.posted.at(-1)!;
    expect(keys).toMatchObject({ user_id: "state-123", key_permissions: "read_write" });
    const params = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, String(v)]));
    const account = await channel.connect!.finish({
      params,
      pending,
      redirectUri: receiver.url,
      signal: AbortSignal.timeout(3_000),
    });
    expect(account).toMatchObject({ baseUrl: storeUrl, externalId: storeUrl });
    const dest = {
      id: "d",
      channel: "woocommerce" as const,
      baseUrl: account.baseUrl,
      credentials: account.credentials,
      settings: {},
    };
    await channel.adapter.publish(publishInput(dest, product()));
    expect(standin.store(storeId).listings).toHaveLength(1);
    // Keys the store does not know are refused before anything is kept.
    expect(
      await failureOf(
        channel.connect!.finish({
          params: { ...params, consumer_secret: "cs_wrong" },
          pending,
          redirectUri: receiver.url,
          signal: AbortSignal.timeout(3_000),
        }),
      ),
    ).toMatchObject({ status: 401 });
  });

  test("a refusal sends the owner back with success=0 and posts nothing; bad store addresses are 422", async () => {
    const { storeUrl } = standin.createStore();
    const count = receiver.posted.length;
    standin.denyNextAuthorization();
    const { url } = await channel.connect!.start({
      state: "s",
      redirectUri: receiver.url,
      query: { storeUrl },
    });
    expect(
      new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!).searchParams.get(
        "success",
      ),
    ).toBe("0");
    expect(receiver.posted).toHaveLength(count);
    const strict = createChannelRegistry(channelsConfigFrom({})).channel("woocommerce").connect!;
    for (const storeUrl of [
      "ftp://shop.example",
      "not a url",
      "http://127.0.0.1:8080",
      "https://10.0.0.5/shop",
    ]) {
      expect(
        await failureOf(
          strict.start({ state: "s", redirectUri: "https://x/cb", query: { storeUrl } }),
        ),
      ).toMatchObject({ status: 422 });
    }
  });
});

(contracts ? describe : describe.skip)("contract", () => {
  test("every request the adapter sent kept to the WooCommerce contract, and a broken one is caught", async () => {
    expect(standin.violations).toEqual([]);
    const { storeUrl, consumerKey, consumerSecret } = standin.createStore();
    const res = await fetch(`${storeUrl}/wp-json/wc/v3/products`, {
      method: "POST",
      body: JSON.stringify({ name: "x", regular_price: 19.99 }),
      headers: {
        "content-type": "application/json",
        authorization: `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString("base64")}`,
      },
    });
    expect(res.status).toBe(400);
    expect(standin.violations.splice(0)).toEqual([
      { request: "POST /wp-json/wc/v3/products", problems: ["body/regular_price must be string"] },
    ]);
  });
});
