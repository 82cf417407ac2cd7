import {
  startStandinChannel,
  type StandinChannel,
  type StandinListing,
} from "../src/standins/index.js";
import { stringContaining, stringMatching } from "@catalog/test-support/matchers";

/** GET /v1/listings's answer. */
interface ListingPage {
  items: StandinListing[];
}

const listing = (overrides: Record<string, unknown> = {}) => ({
  sku: "MUG-1",
  title: "Mug",
  price: { amount: "19.99", currency: "EUR" },
  images: [],
  variants: [],
  ...overrides,
});

describe("stand-in channel server", () => {
  let standin: StandinChannel;
  let storeSeq = 0;
  let store = "";
  beforeAll(async () => {
    standin = await startStandinChannel({ port: 0 });
  });
  beforeEach(() => {
    store = `server-test-${++storeSeq}-${process.pid}`;
  });
  afterAll(() => standin.close());

  /** The answer, its JSON body taken as T (unknown unless the test reads into it). */
  async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    token = `${store}:x`,
  ) {
    const response = await fetch(`${standin.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : undefined) as T,
    };
  }

  test("listens on loopback with an ephemeral port", () => {
    expect(standin.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test("requires a bearer token naming the store", async () => {
    const answer = await call("GET", "/v1/listings", undefined, {}, "no-colon");
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
  }, 5_000);

  test("creates, finds by SKU, updates with a version, and 404s an unknown id", async () => {
    const created = await call<StandinListing>("POST", "/v1/listings", listing());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: stringMatching(/^sl_/),
      url: stringContaining(`/s/${store}/listings/`),
      version: 1,
      title: "Mug",
      price: { amount: "19.99", currency: "EUR" },
    });
    expect((await call<ListingPage>("GET", "/v1/listings?sku=MUG-1")).body.items).toEqual([
      created.body,
    ]);
    expect((await call<ListingPage>("GET", "/v1/listings?sku=OTHER")).body.items).toEqual([]);
    const updated = await call(
      "PUT",
      `/v1/listings/${created.body.id}`,
      listing({ title: "Mug v2" }),
    );
    expect(updated).toMatchObject({
      status: 200,
      body: { id: created.body.id, version: 2, title: "Mug v2", createdAt: created.body.createdAt },
    });
    expect((await call("PUT", "/v1/listings/sl_nope", listing())).status).toBe(404);
    expect(standin.store(store).counts).toMatchObject({ create: 1, update: 1, requests: 5 });
  }, 5_000);

  test.each([
    ["title", listing({ title: undefined })],
    ["title", listing({ title: "x".repeat(256) })],
    ["price.amount", listing({ price: { currency: "EUR" } })],
    ["price.amount", listing({ price: { amount: 19.99 } })],
  ])(
    "rejects a listing with a bad %s with 422",
    async (field, body) => {
      const answer = await call("POST", "/v1/listings", body);
      expect(answer).toMatchObject({ status: 422, body: { error: { code: "invalid", field } } });
      expect(standin.store(store).counts.create).toBe(0);
    },
    5_000,
  );

  test("a repeated Idempotency-Key returns the first listing; a second SKU is a conflict", async () => {
    const first = await call("POST", "/v1/listings", listing(), { "idempotency-key": "k1" });
    const again = await call("POST", "/v1/listings", listing({ title: "changed" }), {
      "idempotency-key": "k1",
    });
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(
      (await call("POST", "/v1/listings", listing(), { "idempotency-key": "k2" })).status,
    ).toBe(409);
    expect(standin.store(store).counts.create).toBe(1);
    expect(standin.store(store).listings).toHaveLength(1);
  }, 5_000);

  test("stores are isolated: another store neither sees nor updates a listing", async () => {
    const created = await call<StandinListing>("POST", "/v1/listings", listing());
    const other = `${store}-other:x`;
    expect(
      (await call<ListingPage>("GET", "/v1/listings?sku=MUG-1", undefined, {}, other)).body.items,
    ).toEqual([]);
    expect(
      (await call("PUT", `/v1/listings/${created.body.id}`, listing(), {}, other)).status,
    ).toBe(404);
    // The same key in another store is another store's business.
    expect(
      (await call("POST", "/v1/listings", listing(), { "idempotency-key": "k1" }, other)).status,
    ).toBe(201);
  }, 5_000);

  test("faults are driven over the control API and expire after `times`", async () => {
    const set = await fetch(`${standin.url}/_control/stores/${store}/fault`, {
      method: "POST",
      body: JSON.stringify({ kind: "throttle", retryAfterSeconds: 3, times: 1 }),
    });
    expect(set.status).toBe(200);
    const throttled = await call("GET", "/v1/listings");
    expect(throttled).toMatchObject({ status: 429, body: { error: { code: "throttled" } } });
    expect(throttled.headers.get("retry-after")).toBe("3");
    expect((await call("GET", "/v1/listings")).status).toBe(200);

    await fetch(`${standin.url}/_control/stores/${store}/fault`, {
      method: "POST",
      body: JSON.stringify({ kind: "invalid", message: "nope" }),
    });
    expect((await call("GET", "/v1/listings")).body).toEqual({
      error: { code: "invalid", message: "nope" },
    });
    expect((await call("GET", "/v1/listings")).status).toBe(422);
    expect(
      (await fetch(`${standin.url}/_control/stores/${store}/fault`, { method: "DELETE" })).status,
    ).toBe(204);
    expect((await call("POST", "/v1/listings", listing())).status).toBe(201);

    const inspection = await (await fetch(`${standin.url}/_control/stores/${store}`)).json();
    expect(inspection).toMatchObject({
      counts: { create: 1, update: 0, requests: 5 },
      fault: null,
      listings: [{ sku: "MUG-1" }],
    });

    expect(
      (await fetch(`${standin.url}/_control/stores/${store}`, { method: "DELETE" })).status,
    ).toBe(204);
    expect(standin.store(store)).toEqual({
      listings: [],
      counts: { create: 0, update: 0, requests: 0, throttled: 0, routes: {} },
      fault: null,
    });
  }, 5_000);

  test("the control API refuses a malformed fault", async () => {
    const answer = await fetch(`${standin.url}/_control/stores/${store}/fault`, {
      method: "POST",
      body: JSON.stringify({ kind: "error", status: 404 }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: { code: "bad_fault", message: "fault.status must be 500, 502 or 503" },
    });
  }, 5_000);

  test("clearing all faults, in process and over HTTP", async () => {
    standin.setFault(store, { kind: "auth" });
    standin.setFault(`${store}-b`, { kind: "reset" });
    expect((await call("GET", "/v1/listings")).status).toBe(401);
    standin.clearFaults();
    expect((await call("GET", "/v1/listings")).status).toBe(200);
    expect((await call("GET", "/v1/listings", undefined, {}, `${store}-b:x`)).status).toBe(200);
    standin.setFault(store, { kind: "error", status: 500 });
    expect((await fetch(`${standin.url}/_control/faults`, { method: "DELETE" })).status).toBe(204);
    expect(standin.store(store).fault).toBeNull();
  }, 5_000);

  test("a reset fault drops the connection without an answer", async () => {
    standin.setFault(store, { kind: "reset", times: 1 });
    await expect(call("GET", "/v1/listings")).rejects.toThrow("fetch failed");
    expect((await call("GET", "/v1/listings")).status).toBe(200);
  }, 5_000);

  test("concurrent creates each get their own listing and are all counted", async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call<StandinListing>("POST", "/v1/listings", listing({ sku: `B-${i}` })),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(200);
    expect(standin.store(store).counts).toMatchObject({ create: 200, update: 0, requests: 200 });
  }, 15_000);
});
