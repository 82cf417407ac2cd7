import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { pino } from "pino";
import type { Queue } from "bullmq";
import {
  createTestOrg,
  deleteRedisPrefix,
  eventually,
  makeProduct,
  startFixtureServer,
  type FixturePage,
  type TestOrg,
} from "@catalog/testing";
import {
  WATCH_EVERY_MS,
  sourceWatchQueue,
  watchSchedulerId,
  workerConnection,
  type RedisClient,
  type SourceCheckJob,
} from "@catalog/queue";
import type { HistoryEntry, Import, ProductDetail, Watch } from "../../gateway/src/api-types.js";
import {
  errorOf,
  login,
  startGateway,
  startScrapeWorker,
  type Gateway,
} from "../../gateway/test/harness.js";
import { startSourceWatch } from "../src/source-watch/start.js";

const productPage = (price: string, availability = "InStock") => ({
  body: `<html><head><script type="application/ld+json">{"@type":"Product","name":"Watched Mug","offers":{"price":"${price}","priceCurrency":"EUR","availability":"https://schema.org/${availability}"}}</script></head></html>`,
});

// This file's own Redis prefix, under the run's, so flushing it touches no other test.
const prefix = `${process.env.REDIS_PREFIX ?? "catalog-test"}:watch-${randomBytes(3).toString("hex")}`;
let gw: Gateway;
let t: TestOrg;
let cookie: string;
let connection: RedisClient;
let queue: Queue<SourceCheckJob>;
let closeWatch: () => Promise<void>;
const HOST_GAP_MS = 300;

const startWatch = () =>
  startSourceWatch({
    databaseUrl: gw.config.DATABASE_URL,
    connection,
    redisKeyPrefix: gw.config.redisKeyPrefix,
    concurrency: 2,
    hostGapMs: HOST_GAP_MS,
    reader: {
      policy: { allowPrivate: true },
      renderer: null,
      fetchTimeoutMs: 5_000,
      renderTimeoutMs: 5_000,
      maxBytes: 1_000_000,
    },
    log: pino({ level: process.env.WATCH_TEST_LOG ?? "silent" }),
  });

beforeAll(async () => {
  gw = await startGateway({ REDIS_PREFIX: prefix, LOCAL_INGEST: "true" });
  t = await createTestOrg(gw.db, "watch");
  cookie = await login(gw.app, t.member.email, t.member.password);
  connection = workerConnection(gw.config);
  queue = sourceWatchQueue(connection, gw.config.redisKeyPrefix);
  closeWatch = await startWatch();
});
afterAll(async () => {
  await closeWatch();
  await queue.close();
  connection.disconnect();
  await gw.close();
  await deleteRedisPrefix(gw.config, prefix);
});

const api = (method: "GET" | "PUT" | "POST", url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function pagedProduct(url: string) {
  return makeProduct(gw.db, t.org.id, {
    title: "Watched Mug",
    price: { amount: "19.99", currency: "EUR" },
    availability: "InStock",
    sourceUrl: url,
  });
}

const detail = async (id: string) =>
  (await api("GET", `/api/products/${id}`)).json<ProductDetail>();
const watchOf = async (id: string) => (await detail(id)).watch!;
const latestHistory = async (id: string) =>
  (await api("GET", `/api/products/${id}/history`)).json<{ items: HistoryEntry[] }>().items[0];
const row = (id: string) => gw.db.product.findUniqueOrThrow({ where: { id } });

test("a watched page whose price changes updates the product, with a history entry saying source re-check", async () => {
  const pages: Record<string, FixturePage> = { "/mug": productPage("19.99") };
  const site = await startFixtureServer(pages);
  try {
    const product = await pagedProduct(site.url("/mug"));
    const watched = await api("PUT", `/api/products/${product.id}/watch`, { schedule: "daily" });
    expect(watched.statusCode).toBe(200);
    expect(watched.json<Watch>()).toMatchObject({ schedule: "daily" });
    expect(watched.json<Watch>()!.nextCheckAt).not.toBeNull();
    const scheduler = await queue.getJobScheduler(watchSchedulerId(product.id));
    expect(scheduler?.every).toBe(WATCH_EVERY_MS.daily);
    // The first check runs at once, and finds the page as it was imported.
    await eventually(
      async () => expect((await row(product.id)).watchLastResult).toBe("no change"),
      10_000,
    );

    // Live on a store with automatic sync on: the change must reach it by itself.
    const store = await gw.db.destinationAccount.create({
      data: { orgId: t.org.id, channel: "standin", name: "Watched store" },
    });
    await gw.db.listing.create({
      data: {
        orgId: t.org.id,
        productId: product.id,
        destinationAccountId: store.id,
        status: "published",
        remoteId: "remote-mug",
      },
    });

    pages["/mug"] = productPage("17.99");
    const check = await api("POST", `/api/v1/products/${product.id}/watch/check`);
    expect(check.statusCode).toBe(202);
    await eventually(async () => expect((await row(product.id)).version).toBe(2), 10_000);

    const body = await detail(product.id);
    const watch = body.watch!;
    expect(body.price).toEqual({ amount: "17.99", currency: "EUR" });
    expect(watch).toMatchObject({
      schedule: "daily",
      lastResult: "price 19.99 EUR -> 17.99 EUR",
    });
    expect(watch.lastCheckedAt).not.toBeNull();
    expect(watch.lastChangedAt).not.toBeNull();
    // The next scheduled check is a day after the first.
    const nextAt = Date.parse(watch.nextCheckAt!);
    expect(nextAt - Date.now()).toBeGreaterThan(WATCH_EVERY_MS.daily - 60_000);
    expect(nextAt - Date.now()).toBeLessThanOrEqual(WATCH_EVERY_MS.daily);
    expect(await latestHistory(product.id)).toMatchObject({
      actor: { type: "system", id: "source-recheck" },
      action: "updated",
      changes: {
        price: {
          from: { amount: "19.99", currency: "EUR" },
          to: { amount: "17.99", currency: "EUR" },
        },
      },
    });
    // One automatic update of the listing, saying what caused it.
    const updates = await gw.db.syncLog.findMany({
      where: { productId: product.id, destinationAccountId: store.id },
    });
    expect(updates).toEqual([
      expect.objectContaining({ kind: "update", trigger: "price changed by source re-check" }),
    ]);

    // The same page again: a check, no change, no new version.
    await api("POST", `/api/products/${product.id}/watch/check`);
    await eventually(
      async () => expect((await row(product.id)).watchLastResult).toBe("no change"),
      10_000,
    );
    expect((await row(product.id)).version).toBe(2);
  } finally {
    await site.close();
  }
});

test("a page that is gone (404) marks the product out of stock and says so; one without a product too", async () => {
  const pages: Record<string, FixturePage> = { "/mug": productPage("19.99") };
  const site = await startFixtureServer(pages);
  try {
    const gone = await pagedProduct(site.url("/gone"));
    await api("PUT", `/api/products/${gone.id}/watch`, { schedule: "hourly" });
    await api("POST", `/api/products/${gone.id}/watch/check`);
    await eventually(
      async () => expect((await row(gone.id)).watchLastResult).toMatch(/^page gone \(404\)/),
      10_000,
    );
    const after = await row(gone.id);
    expect(after).toMatchObject({ availability: "OutOfStock", quantity: 0, version: 2 });
    // Watching ran a first check at once too; the one that found the change says what it did.
    expect(await latestHistory(gone.id)).toMatchObject({
      actor: { type: "system", id: "source-recheck" },
      changes: {
        availability: { from: "InStock", to: "OutOfStock" },
        quantity: { from: null, to: 0 },
      },
    });
    expect((await watchOf(gone.id)).lastResult).toMatch(/^page gone \(404\)/);

    pages["/empty"] = { body: "<html><body><p>This product is no longer sold.</p></body></html>" };
    const emptied = await pagedProduct(site.url("/empty"));
    await api("POST", `/api/products/${emptied.id}/watch/check`);
    await eventually(
      async () => expect((await row(emptied.id)).availability).toBe("OutOfStock"),
      10_000,
    );
    expect((await row(emptied.id)).watchLastResult).toMatch(/^product no longer on the page/);
  } finally {
    await site.close();
  }
});

test("a page that fails with a server error changes nothing and says so", async () => {
  const pages: Record<string, FixturePage> = { "/mug": { status: 503, body: "busy" } };
  const site = await startFixtureServer(pages);
  try {
    const product = await pagedProduct(site.url("/mug"));
    await api("PUT", `/api/products/${product.id}/watch`, { schedule: "weekly" });
    await api("POST", `/api/products/${product.id}/watch/check`);
    await eventually(
      async () => expect((await row(product.id)).watchLastCheckedAt).not.toBeNull(),
      10_000,
    );
    const after = await row(product.id);
    expect(after).toMatchObject({ version: 1, availability: "InStock", watchLastChangedAt: null });
    expect(after.watchLastResult).toMatch(/could not be read: .*503.*; nothing changed$/);
  } finally {
    await site.close();
  }
});

test("two products on one host are never fetched at once, and the host rests between them", async () => {
  const visits: { start: number; end: number }[] = [];
  const server = createServer((request, response) => {
    const visit = { start: Date.now(), end: 0 };
    visits.push(visit);
    setTimeout(() => {
      visit.end = Date.now();
      response.writeHead(200, { "content-type": "text/html" }).end(productPage("5.00").body);
    }, 150);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const a = await pagedProduct(`${base}/a`);
    const b = await pagedProduct(`${base}/b`);
    // The worker runs two checks at once; both are for the same host.
    await Promise.all([
      api("POST", `/api/products/${a.id}/watch/check`),
      api("POST", `/api/products/${b.id}/watch/check`),
    ]);
    await eventually(async () => {
      expect((await row(a.id)).watchLastCheckedAt).not.toBeNull();
      expect((await row(b.id)).watchLastCheckedAt).not.toBeNull();
    }, 10_000);
    expect(visits).toHaveLength(2);
    const [first, second] = visits.sort((x, y) => x.start - y.start);
    expect(second!.start).toBeGreaterThanOrEqual(first!.end + HOST_GAP_MS - 20);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a URL import started with watch stores products that are watched on that schedule", async () => {
  const site = await startFixtureServer({
    "/imported": productPage("12.00"),
    "/one-shot": productPage("14.00"),
  });
  const scraper = startScrapeWorker(gw, { fetchTimeoutMs: 5000, concurrency: 1 });
  try {
    const started = await api("POST", "/api/imports", {
      urls: [site.url("/imported")],
      watch: "weekly",
    });
    expect(started.statusCode).toBe(202);
    const { id } = started.json<Import>();
    expect(started.json<Import>().watch).toBe("weekly");
    const statusOf = async () => (await api("GET", `/api/imports/${id}`)).json<Import>().status;
    await eventually(async () => expect(await statusOf()).toBe("ready"), 10_000);
    expect((await api("POST", `/api/imports/${id}/store`, {})).statusCode).toBe(202);
    await eventually(async () => expect(await statusOf()).toBe("stored"), 10_000);
    await eventually(async () => {
      const stored = await gw.db.product.findFirstOrThrow({
        where: { orgId: t.org.id, sourceUrl: site.url("/imported") },
      });
      expect(stored.watchSchedule).toBe("weekly");
      const scheduler = await queue.getJobScheduler(watchSchedulerId(stored.id));
      expect(scheduler?.every).toBe(WATCH_EVERY_MS.weekly);
    }, 10_000);

    // The one-shot route too, when it stores.
    const oneShot = await api("POST", "/api/import/url", {
      urls: [site.url("/one-shot")],
      persist: true,
      watch: "hourly",
    });
    expect(oneShot.statusCode).toBe(200);
    const stored = await gw.db.product.findFirstOrThrow({
      where: { orgId: t.org.id, sourceUrl: site.url("/one-shot") },
    });
    expect(stored.watchSchedule).toBe("hourly");
    expect((await queue.getJobScheduler(watchSchedulerId(stored.id)))?.every).toBe(
      WATCH_EVERY_MS.hourly,
    );
  } finally {
    await scraper.close();
    await site.close();
  }
});

test("only a product from a page can be watched; unwatching or deleting it removes its scheduler", async () => {
  const typed = await makeProduct(gw.db, t.org.id, { title: "Typed in" });
  const refused = await api("PUT", `/api/products/${typed.id}/watch`, { schedule: "daily" });
  expect(refused.statusCode).toBe(422);
  expect(errorOf(refused)).toMatch(/no sourceUrl/);
  expect((await api("POST", `/api/products/${typed.id}/watch/check`)).statusCode).toBe(422);

  const product = await pagedProduct("https://shop.example/mug");
  await api("PUT", `/api/products/${product.id}/watch`, { schedule: "hourly" });
  expect(await queue.getJobScheduler(watchSchedulerId(product.id))).toBeDefined();
  const off = await api("PUT", `/api/products/${product.id}/watch`, { schedule: null });
  expect(off.statusCode).toBe(200);
  expect(off.json<Watch>()).toBeNull();
  expect(await queue.getJobScheduler(watchSchedulerId(product.id))).toBeUndefined();
  expect((await detail(product.id)).watch).toBeNull();

  await api("PUT", `/api/products/${product.id}/watch`, { schedule: "daily" });
  expect(await queue.getJobScheduler(watchSchedulerId(product.id))).toBeDefined();
  const deleted = await gw.app.inject({
    method: "DELETE",
    url: `/api/products/${product.id}`,
    headers: { cookie },
  });
  expect(deleted.statusCode).toBe(204);
  expect(await queue.getJobScheduler(watchSchedulerId(product.id))).toBeUndefined();
});

test("after Redis loses everything, a starting import worker makes the schedulers again from PostgreSQL", async () => {
  const hourly = await pagedProduct("https://shop.example/hourly");
  const weekly = await pagedProduct("https://shop.example/weekly");
  await api("PUT", `/api/products/${hourly.id}/watch`, { schedule: "hourly" });
  await api("PUT", `/api/products/${weekly.id}/watch`, { schedule: "weekly" });

  await closeWatch();
  await deleteRedisPrefix(gw.config, prefix);
  expect(await queue.getJobScheduler(watchSchedulerId(hourly.id))).toBeUndefined();

  closeWatch = await startWatch();
  expect((await queue.getJobScheduler(watchSchedulerId(hourly.id)))?.every).toBe(
    WATCH_EVERY_MS.hourly,
  );
  expect((await queue.getJobScheduler(watchSchedulerId(weekly.id)))?.every).toBe(
    WATCH_EVERY_MS.weekly,
  );
  expect((await row(weekly.id)).watchNextCheckAt).not.toBeNull();
});
