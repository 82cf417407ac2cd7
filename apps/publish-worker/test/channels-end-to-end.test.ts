// For each real channel, what a merchant does, end to end through the gateway (listening on a
// real port), a publish worker and the channel's stand-in (checking every request against the
// channel's published contract where ../shared is present): connect through the channel's
// authorize page, publish, edit and publish again, then live through throttling, an outage and
// an expired token, all visible in the sync logs.
import { randomBytes } from "node:crypto";
import type { ChannelStandin } from "@catalog/channels/standins";
import { loadDestinationTarget, replaceDestinationCredentials } from "@catalog/db";
import type { ApiError, Connected } from "@catalog/gateway/api-types";
import { eventually, makeProduct, startFixtureServer } from "@catalog/testing";
import { login, startServedPipeline, syncLogsOf, type Pipeline } from "./pipeline-harness.js";
import { CHANNEL_CASES, type ChannelCase } from "./channel-cases.js";
import {
  arrayContaining,
  objectContaining,
  stringContaining,
  stringMatching,
} from "@catalog/test-support/matchers";

type Jobs = { jobs: { syncLogId: string }[] };

/** Channels whose description is plain text (the others take HTML). */
const TAKES_TEXT = new Set(["etsy", "amazon"]);

// A one-pixel PNG: Etsy's adapter downloads images and uploads the bytes.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe.each(CHANNEL_CASES)("$channel", (c: ChannelCase) => {
  let p: Pipeline;
  let standin: ChannelStandin;
  let gateway: string;
  let images: Awaited<ReturnType<typeof startFixtureServer>>;

  beforeAll(async () => {
    images = await startFixtureServer({
      "/a.png": { body: PNG, contentType: "image/png" },
      "/b.png": { body: PNG, contentType: "image/png" },
    });
    ({ p, standin, gateway } = await startServedPipeline(
      (at) => c.start({ callbackUrl: `${at}/api/integrations/${c.channel}/callback` }),
      { CHANNEL_PRIVATE_URLS: "true" },
    ));
  }, 30_000);
  afterAll(async () => {
    await p.close();
    await standin.close();
    await images.close();
  });
  afterEach(() => {
    standin.clearFaults();
    // Every request the adapter sent in this test kept to the channel's contract.
    expect(standin.violations).toEqual([]);
  });

  /**
   * Connect through the stand-in's authorize page as a browser would: connect -> authorize ->
   * callback.
   */
  async function connect(cookie = p.ownerCookie) {
    const query = new URLSearchParams(await c.connectQuery(standin));
    const start = await fetch(
      `${gateway}/api/integrations/${c.channel}/connect?${query.toString()}`,
      { headers: { cookie }, redirect: "manual" },
    );
    expect(start.status).toBe(302);
    const authorize = start.headers.get("location")!;
    expect(authorize.startsWith(standin.url)).toBe(true);
    const approved = await fetch(authorize, { redirect: "manual" });
    expect(approved.status).toBe(302);
    const back = approved.headers.get("location")!;
    expect(back.startsWith(`${gateway}/api/integrations/${c.channel}/callback`)).toBe(true);
    const done = await fetch(back, { headers: { cookie } });
    return { status: done.status, body: (await done.json()) as Connected | ApiError, back };
  }

  async function connectedDestination(): Promise<{ id: string; storeId: string }> {
    const { status, body } = await connect();
    expect(status).toBe(200);
    const { id } = (body as Connected).destination;
    if (c.settings) {
      const res = await p.app.inject({
        method: "PATCH",
        url: `/api/destinations?id=${id}`,
        headers: { cookie: p.ownerCookie },
        payload: { settings: c.settings },
      });
      expect(res.statusCode).toBe(200);
    }
    return { id, storeId: standin.storeIds().at(-1)! };
  }

  async function product(label: string) {
    const sku = `${label.toUpperCase()}-${randomBytes(3).toString("hex")}`;
    const made = await makeProduct(p.db, p.org.org.id, {
      title: `${label} — Tasse à café ☕`,
      sku,
      description: "Stoneware, holds 350 ml.\nDishwasher safe.",
      price: { amount: "24.5000", currency: "USD" },
      brand: "Acme",
      images: [images.url("/a.png"), images.url("/b.png")],
      availability: "InStock",
      variants: c.variants
        ? [
            {
              sku: `${sku}-BL`,
              title: "Blue",
              price: { amount: "24.50", currency: "USD" },
              options: { Color: "Blue" },
              gtin: null,
              availability: "InStock",
              image: null,
            },
            {
              sku: `${sku}-RD`,
              title: "Red",
              price: { amount: "26.00", currency: "USD" },
              options: { Color: "Red" },
              gtin: null,
              availability: "InStock",
              image: null,
            },
          ]
        : [],
    });
    return made.id;
  }

  async function publish(productId: string, destinationId: string): Promise<string> {
    const res = await p.publish([productId], [destinationId]);
    expect(res.statusCode).toBe(200);
    return res.json<Jobs>().jobs[0]!.syncLogId;
  }

  const logOf = async (id: string) => (await syncLogsOf(p.db, [id]))[0]!;

  test("connecting through the authorize page creates a destination whose tokens are stored sealed", async () => {
    const { id } = await connectedDestination();
    const listed = (
      await p.app.inject({ method: "GET", url: "/api/destinations", headers: { cookie: p.cookie } })
    ).json<{ items: { id: string; channel: string }[] }>();
    expect(listed.items).toEqual(arrayContaining([objectContaining({ id, channel: c.channel })]));
    const row = await p.db.destinationAccount.findUniqueOrThrow({ where: { id } });
    expect(row.credentialsKeyId).toBeTruthy();
    expect((): unknown =>
      JSON.parse(Buffer.from(row.credentials!, "base64").toString("utf8")),
    ).toThrow();
  }, 20_000);

  test("a replayed callback, another session's callback and a refused authorization are all refused", async () => {
    const first = await connect();
    expect(first.status).toBe(200);
    const replay = await fetch(first.back, { headers: { cookie: p.ownerCookie } });
    expect(replay.status).toBe(403);
    expect(((await replay.json()) as { error: string }).error).toMatch(
      /unknown, expired, already used|another session/,
    );

    // A callback carried to another session (the same owner signed in elsewhere) is refused, and
    // spends the state.
    const query = new URLSearchParams(await c.connectQuery(standin));
    const start = await fetch(
      `${gateway}/api/integrations/${c.channel}/connect?${query.toString()}`,
      { headers: { cookie: p.ownerCookie }, redirect: "manual" },
    );
    const approved = await fetch(start.headers.get("location")!, { redirect: "manual" });
    const elsewhere = await login(p.app, p.org.owner.email, p.org.owner.password);
    const foreign = await fetch(approved.headers.get("location")!, {
      headers: { cookie: elsewhere },
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: string }).error).toMatch(
      /unknown, expired, already used|another session/,
    );

    standin.denyNextAuthorization();
    const denied = await connect();
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: stringMatching(/refused|denied/i) });
  }, 20_000);

  test("publish, edit and publish again: one listing on the channel, updated", async () => {
    const { id, storeId } = await connectedDestination();
    const productId = await product("Mug");
    const first = await publish(productId, id);
    await eventually(
      async () => expect(await logOf(first)).toMatchObject({ status: "succeeded", attempts: 1 }),
      15_000,
    );
    const detail = (
      await p.app.inject({
        method: "GET",
        url: `/api/products/${productId}`,
        headers: { cookie: p.cookie },
      })
    ).json<{ listings: Record<string, unknown>[] }>();
    const remoteId = (await logOf(first)).remoteId;
    expect(detail.listings).toEqual([
      objectContaining({
        destinationAccountId: id,
        channel: c.channel,
        status: "published",
        remoteId,
      }),
    ]);

    const edit = await p.app.inject({
      method: "PATCH",
      url: `/api/products/${productId}`,
      headers: { cookie: p.cookie },
      payload: { title: "Mug, large" },
    });
    expect(edit.statusCode).toBe(200);
    const second = await publish(productId, id);
    await eventually(
      async () => expect(await logOf(second)).toMatchObject({ status: "succeeded", remoteId }),
      15_000,
    );
    const { listings, counts } = standin.store(storeId);
    expect(listings).toHaveLength(1);
    expect(listings[0]!.title).toMatch(/^Mug, large/);
    expect(counts.create).toBe(1);
    expect(counts.update).toBeGreaterThanOrEqual(1);
  }, 40_000);

  test("a description reaches the channel without scripts, handlers or javascript: links, as HTML or as text as the channel takes it", async () => {
    const { id, storeId } = await connectedDestination();
    const productId = await product("Shirt");
    // A row from before descriptions were cleaned on write (or written by hand): read clean.
    const hostile =
      `<p onclick="steal()">Soft <b>linen</b>.</p><script>alert(1)</script><img src=x onerror="alert(2)">` +
      `<ul><li>Relaxed fit</li></ul><p><a href="javascript:alert(3)">click</a> and <a href="https://shop.example/care">care</a></p>`;
    await p.db
      .$executeRaw`UPDATE products SET description = ${hostile} WHERE id = ${productId}::uuid`;
    const first = await publish(productId, id);
    await eventually(
      async () => expect(await logOf(first)).toMatchObject({ status: "succeeded" }),
      15_000,
    );
    const html = `<p>Soft <b>linen</b>.</p><ul><li>Relaxed fit</li></ul><p><a>click</a> and <a href="https://shop.example/care">care</a></p>`;
    expect(standin.store(storeId).listings[0]!.description).toBe(
      TAKES_TEXT.has(c.channel) ? "Soft linen.\n\n * Relaxed fit\n\nclick and care" : html,
    );

    // An edit's plain text: escaped, its lines kept, never shown as markup.
    const edit = await p.app.inject({
      method: "PATCH",
      url: `/api/products/${productId}`,
      headers: { cookie: p.cookie },
      payload: { description: "Fish & chips <3\nSecond line" },
    });
    expect(edit.statusCode).toBe(200);
    const second = await publish(productId, id);
    await eventually(
      async () => expect(await logOf(second)).toMatchObject({ status: "succeeded" }),
      15_000,
    );
    expect(standin.store(storeId).listings[0]!.description).toBe(
      TAKES_TEXT.has(c.channel)
        ? "Fish & chips <3\nSecond line"
        : "<p>Fish &amp; chips &lt;3<br />Second line</p>",
    );
  }, 40_000);

  test("a throttled channel pauses the destination without spending an attempt; an outage is retried", async () => {
    const { id, storeId } = await connectedDestination();
    standin.setFault(storeId, { kind: "throttle", retryAfterSeconds: 2, times: 1 });
    const throttled = await publish(await product("Bowl"), id);
    await eventually(
      async () =>
        expect(await logOf(throttled)).toMatchObject({
          status: "queued",
          error: stringContaining(c.channel),
        }),
      10_000,
    );
    const destinations = (
      await p.app.inject({ method: "GET", url: "/api/destinations", headers: { cookie: p.cookie } })
    ).json<{ items: { id: string; channelWaitUntil: string | null }[] }>();
    expect(destinations.items.find((d) => d.id === id)!.channelWaitUntil).not.toBeNull();
    await eventually(
      async () =>
        expect(await logOf(throttled)).toMatchObject({
          status: "succeeded",
          attempts: 1,
          error: null,
        }),
      20_000,
    );

    standin.setFault(storeId, { kind: "error", status: 503, times: 1 });
    const outage = await publish(await product("Plate"), id);
    await eventually(
      async () => expect(await logOf(outage)).toMatchObject({ status: "succeeded", attempts: 2 }),
      20_000,
    );
    expect(standin.store(storeId).listings).toHaveLength(2);
  }, 60_000);

  test("a missing required field fails before any call, naming the field", async () => {
    const { id, storeId } = await connectedDestination();
    const before = standin.store(storeId).counts.requests;
    const made = await makeProduct(p.db, p.org.org.id, {
      title: "No price",
      sku: `NOPRICE-${randomBytes(3).toString("hex")}`,
    });
    const log = await publish(made.id, id);
    await eventually(
      async () =>
        expect(await logOf(log)).toMatchObject({
          status: "failed",
          attempts: 1,
          error: stringMatching(/price/i),
        }),
      10_000,
    );
    expect(standin.store(storeId).counts.requests).toBe(before);
  }, 20_000);

  // Only channels whose tokens expire (eBay, Etsy) have this case at all.
  if (c.expiringTokens)
    test("an expired access token is refreshed and the publish goes through", async () => {
      const { id, storeId } = await connectedDestination();
      const sealedBefore = (await p.db.destinationAccount.findUniqueOrThrow({ where: { id } }))
        .credentials;
      standin.expireAccessTokens(storeId);
      const log = await publish(await product("Jug"), id);
      await eventually(
        async () => expect(await logOf(log)).toMatchObject({ status: "succeeded", attempts: 1 }),
        15_000,
      );
      const sealedAfter = (await p.db.destinationAccount.findUniqueOrThrow({ where: { id } }))
        .credentials;
      expect(sealedAfter).not.toBe(sealedBefore);
    }, 30_000);

  if (c.expiringTokens)
    test("a token about to expire is refreshed before the publish, without the channel refusing it first", async () => {
      const { id } = await connectedDestination();
      const before = (await loadDestinationTarget(p.db, p.keyring, id))!;
      // Two minutes left: the channel still takes the token, but it is inside the worker's margin.
      await replaceDestinationCredentials(p.db, p.keyring, id, {
        ...before.credentials,
        expiresAt: Date.now() + 120_000,
      });
      const log = await publish(await product("Cup"), id);
      await eventually(
        async () => expect(await logOf(log)).toMatchObject({ status: "succeeded", attempts: 1 }),
        15_000,
      );
      const after = (await loadDestinationTarget(p.db, p.keyring, id))!;
      expect(after.credentials.accessToken).not.toBe(before.credentials.accessToken);
      expect(after.credentials.expiresAt).toBeGreaterThan(Date.now() + 10 * 60_000);
    }, 30_000);
});
