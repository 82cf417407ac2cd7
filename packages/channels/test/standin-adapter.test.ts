import { channelsConfigFrom } from "./channels-env.js";
import {
  createChannelRegistry,
  ChannelWaitError,
  createStandinAdapter,
  GiveUpChannelError,
  RetryableChannelError,
} from "../src/index.js";
import { startStandinChannel, type StandinChannel } from "../src/standins/index.js";
import { destination, product, publishInput } from "./fixtures.js";

const adapter = createStandinAdapter({ timeoutMs: 2_000 });
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("standin adapter", () => {
  let standin: StandinChannel;
  beforeAll(async () => {
    standin = await startStandinChannel();
  });
  afterAll(() => standin.close());

  test("creates once, then updates the listing it created", async () => {
    const dest = destination(standin.url);
    const prod = product();
    const first = await adapter.publish(publishInput(dest, prod));
    expect(first.remoteUrl).toBe(`${standin.url}/s/${dest.storeId}/listings/${first.remoteId}`);
    const second = await adapter.publish(
      publishInput(dest, { ...prod, title: "Stoneware Mug, large" }, { remoteId: first.remoteId }),
    );
    expect(second).toEqual(first);
    const { listings, counts } = standin.store(dest.storeId);
    // One request to create (no lookup first), one to update.
    expect(counts).toEqual({ create: 1, update: 1, offer: 0, end: 0, throttled: 0, requests: 2 });
    expect(listings).toHaveLength(1);
    expect(listings[0]).toMatchObject({
      id: first.remoteId,
      version: 2,
      title: "Stoneware Mug, large",
      sku: prod.sku,
      price: { amount: "19.99", currency: "EUR" },
    });
    expect(listings[0]!.variants).toEqual([
      {
        sku: "MUG-1-BLUE",
        title: "Blue",
        price: { amount: "21.50", currency: "EUR" },
        options: { color: "blue" },
        gtin: null,
      },
    ]);
    const page = await fetch(first.remoteUrl!);
    expect(page.status).toBe(200);
  }, 5_000);

  test("adopts a listing the channel already has under the product's SKU", async () => {
    const dest = destination(standin.url);
    const prod = product();
    const made = await adapter.publish(
      publishInput(dest, product({ sku: prod.sku, title: "Listed by hand" }), {
        idempotencyKey: "by-hand",
      }),
    );
    const adopted = await adapter.publish(publishInput(dest, prod));
    expect(adopted.remoteId).toBe(made.remoteId);
    expect(standin.store(dest.storeId).counts).toMatchObject({ create: 1, update: 1 });
    expect(standin.store(dest.storeId).listings[0]).toMatchObject({
      title: "Stoneware Mug",
      version: 2,
    });
  }, 5_000);

  test("a create repeated with the same idempotency key returns the first listing", async () => {
    const dest = destination(standin.url);
    // No SKU: nothing to adopt by, so only the key stands between a retry and a duplicate.
    const prod = product({ sku: null });
    const first = await adapter.publish(publishInput(dest, prod));
    const retried = await adapter.publish(publishInput(dest, prod));
    expect(retried.remoteId).toBe(first.remoteId);
    expect(standin.store(dest.storeId).counts).toMatchObject({ create: 1, update: 0 });
    expect(standin.store(dest.storeId).listings).toHaveLength(1);
  }, 5_000);

  test("a stored remote id the channel no longer knows leads to a new listing", async () => {
    const dest = destination(standin.url);
    const outcome = await adapter.publish(publishInput(dest, product(), { remoteId: "sl_gone" }));
    expect(outcome.remoteId).not.toBe("sl_gone");
    expect(standin.store(dest.storeId).counts).toMatchObject({ create: 1, update: 0 });
  }, 5_000);

  test.each([
    ["title", { title: "  " }],
    ["priceAmount", { priceAmount: null }],
  ])(
    "a missing %s gives up before any request",
    async (field, overrides) => {
      const dest = destination(standin.url);
      const error = await failureOf(adapter.publish(publishInput(dest, product(overrides))));
      expect(error).toBeInstanceOf(GiveUpChannelError);
      expect(error).toMatchObject({ kind: "validation", field, channel: "standin" });
      // The message names the field as the API does (a product's `price`).
      expect((error as Error).message).toMatch(
        new RegExp(`^standin needs a ${field === "priceAmount" ? "price" : field}: product prod_`),
      );
      expect(standin.store(dest.storeId).counts.requests).toBe(0);
    },
    5_000,
  );

  test("a destination without a token gives up as auth", async () => {
    const dest = { ...destination(standin.url), credentials: {} };
    expect(await failureOf(adapter.publish(publishInput(dest, product())))).toMatchObject({
      kind: "auth",
    });
  }, 5_000);

  test.each([
    [
      "error 503",
      { kind: "error", status: 503 },
      RetryableChannelError,
      { status: 503, message: "standin answered 503: stand-in fault: 503" },
    ],
    ["error 500", { kind: "error", status: 500 }, RetryableChannelError, { status: 500 }],
    ["reset", { kind: "reset" }, RetryableChannelError, { status: undefined }],
    [
      "throttle",
      { kind: "throttle", retryAfterSeconds: 7 },
      ChannelWaitError,
      { retryAfterMs: 7_000, status: 429 },
    ],
    ["throttle (no header)", { kind: "throttle" }, ChannelWaitError, { retryAfterMs: 30_000 }],
    ["auth", { kind: "auth" }, GiveUpChannelError, { kind: "auth", status: 401 }],
    [
      "invalid",
      { kind: "invalid", message: "images must be square", field: "images" },
      GiveUpChannelError,
      { kind: "validation", channelMessage: "images must be square", field: "images" },
    ],
  ] as const)(
    "fault %s gives the matching error class",
    async (_name, fault, errorClass, fields) => {
      const dest = destination(standin.url);
      standin.setFault(dest.storeId, fault);
      const error = await failureOf(adapter.publish(publishInput(dest, product())));
      expect(error).toBeInstanceOf(errorClass);
      expect(error).toMatchObject({ channel: "standin", ...fields });
      expect(standin.store(dest.storeId).counts.create).toBe(0);
    },
    5_000,
  );

  test("a throttle sent as an HTTP-date is understood", async () => {
    const dest = destination(standin.url);
    standin.setFault(dest.storeId, {
      kind: "throttle",
      retryAfterSeconds: 60,
      retryAfterAsDate: true,
    });
    const error = (await failureOf(
      adapter.publish(publishInput(dest, product())),
    )) as ChannelWaitError;
    expect(error.retryAfterMs).toBeGreaterThan(58_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
  }, 5_000);

  test("a slow channel past the budget is a retryable timeout; within it, a success", async () => {
    const dest = destination(standin.url);
    standin.setFault(dest.storeId, { kind: "slow", delayMs: 400 });
    const quick = createStandinAdapter({ timeoutMs: 150 });
    const error = await failureOf(quick.publish(publishInput(dest, product())));
    expect(error).toBeInstanceOf(RetryableChannelError);
    expect((error as Error).message).toBe("standin timed out after 150 ms");
    expect((await adapter.publish(publishInput(dest, product({ sku: null })))).remoteId).toMatch(
      /^sl_/,
    );
  }, 5_000);

  test("the caller's signal aborts the publish, without calling it a timeout", async () => {
    const dest = destination(standin.url);
    standin.setFault(dest.storeId, { kind: "slow", delayMs: 1_000 });
    const controller = new AbortController();
    const pending = failureOf(
      adapter.publish(publishInput(dest, product(), { signal: controller.signal })),
    );
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ message: "standin request was aborted" });
  }, 5_000);

  test("a fault with `times` fails that many requests, then the channel recovers", async () => {
    const dest = destination(standin.url);
    const prod = product({ sku: null });
    standin.setFault(dest.storeId, { kind: "error", status: 502, times: 2 });
    expect(await failureOf(adapter.publish(publishInput(dest, prod)))).toBeInstanceOf(
      RetryableChannelError,
    );
    expect(await failureOf(adapter.publish(publishInput(dest, prod)))).toBeInstanceOf(
      RetryableChannelError,
    );
    const outcome = await adapter.publish(publishInput(dest, prod));
    expect(standin.store(dest.storeId)).toMatchObject({
      counts: { create: 1, update: 0, requests: 3 },
      fault: null,
    });
    expect(standin.store(dest.storeId).listings.map((l) => l.id)).toEqual([outcome.remoteId]);
  }, 5_000);
});

describe("channel registry", () => {
  test("gives every channel an adapter, and the stand-in its own", () => {
    const registry = createChannelRegistry(channelsConfigFrom({}));
    expect(registry.adapter("standin").channel).toBe("standin");
    expect(registry.adapter("standin")).toBe(registry.adapter("standin"));
    for (const channel of ["shopify", "ebay", "etsy", "woocommerce"] as const)
      expect(registry.adapter(channel).channel).toBe(channel);
  });
});
