// PostgreSQL stopped for a few seconds under a running gateway (a server of this file's own,
// stopped and started again): clients are told to come back (503, Retry-After), the gateway
// answers normally as soon as the server is back, and an import previewing meanwhile carries on.
import type { LightMyRequestResponse } from "fastify";
import {
  createTestOrg,
  eventually,
  makeProduct,
  startFixtureServer,
  startPrivatePostgres,
  type FixturePage,
  type PrivatePostgres,
  type TestOrg,
} from "@catalog/testing";
import { errorOf, login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix } from "./publishing-fixtures.js";
import type { Import } from "../src/api-types.js";

const productPage = (n: number) => `<!doctype html><html><head><title>Outage ${n}</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Outage lamp ${n}","sku":"OUT-${n}",
"offers":{"@type":"Offer","price":"${n}.00","priceCurrency":"EUR"}}</script></head><body><h1>Outage lamp ${n}</h1></body></html>`;

let pg: PrivatePostgres;
let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  // A Redis prefix of its own: the scrape queue's counts below are this file's jobs only.
  gw = await startGateway({
    DATABASE_URL: pg.url,
    REDIS_PREFIX: privatePrefix("db-outage"),
    LOCAL_INGEST: "true",
    IMPORT_DEADLINE_MS: "20000",
  });
  t = await createTestOrg(gw.db, "db-outage");
  cookie = await login(gw.app, t.member.email, t.member.password);
}, 60_000);
// A test that failed during its outage leaves the server running for the next.
afterEach(() => pg.start());
afterAll(async () => {
  await gw?.close();
  await pg?.close();
});

/**
 * Stops PostgreSQL and waits until the gateway has noticed (its read caches are off), so no answer
 * below comes from memory.
 */
async function stopDatabase() {
  await pg.stop();
  await eventually(async () => expect(gw.app.caches.sessions.enabled).toBe(false), 10_000);
}

const get = (url: string) => gw.app.inject({ method: "GET", url, headers: { cookie } });
const post = (url: string, payload: object, headers: Record<string, string> = { cookie }) =>
  gw.app.inject({ method: "POST", url, headers, payload });

function expectUnavailable(res: LightMyRequestResponse, what: string) {
  expect({ what, status: res.statusCode }).toEqual({ what, status: 503 });
  expect(res.headers["retry-after"]).toBe("5");
  expect(errorOf(res)).toMatch(/database is unavailable/);
}

test("while PostgreSQL is down, database-backed routes answer 503 with Retry-After and { error }; within a second of its return they answer normally", async () => {
  const product = await makeProduct(gw.db, t.org.id, {
    title: "Outage kettle",
    sku: "OUT-KETTLE",
    price: { amount: "10.00", currency: "EUR" },
  });
  const destination = await connectStandin(gw, t.org.id, "outage store");
  const requests: Record<string, () => Promise<LightMyRequestResponse>> = {
    "list products": () => get("/api/products"),
    "read a product": () => get(`/api/products/${product.id}`),
    "edit a product": () =>
      gw.app.inject({
        method: "PATCH",
        url: `/api/products/${product.id}`,
        headers: { cookie },
        payload: { title: "Outage kettle 2" },
      }),
    "the session": () => get("/api/auth/session"),
    "sign in": () =>
      post("/api/auth/session", { email: t.member.email, password: t.member.password }, {}),
    publish: () =>
      post("/api/products/publish", {
        productIds: [product.id],
        destinationAccountIds: [destination.id],
      }),
    "sync logs": () => get("/api/sync-logs"),
    destinations: () => get("/api/destinations"),
    imports: () => get("/api/imports"),
    "extension ingest": () =>
      post(
        "/api/extension/ingest",
        { url: "https://shop.example/outage", html: productPage(0) },
        { "x-service-api-key": t.apiKey },
      ),
  };
  const statuses = async () => {
    const answered: Record<string, number> = {};
    for (const [what, request] of Object.entries(requests))
      answered[what] = (await request()).statusCode;
    return answered;
  };
  const normally = {
    "list products": 200,
    "read a product": 200,
    "edit a product": 200,
    "the session": 200,
    "sign in": 200,
    publish: 200,
    "sync logs": 200,
    destinations: 200,
    imports: 200,
    "extension ingest": 200,
  };
  // Answered once before the outage too, so the time measured after it is the outage's alone,
  // not a first query's preparation.
  expect(await statuses()).toEqual(normally);

  await stopDatabase();
  for (const [what, request] of Object.entries(requests)) expectUnavailable(await request(), what);
  expect((await gw.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(503);
  // A browser coming back from a channel's authorize page is sent to the dashboard with the reason.
  const callback = await gw.app.inject({
    method: "GET",
    url: "/api/integrations/shopify/callback?code=x&state=y",
    headers: { cookie, accept: "text/html" },
  });
  expect(callback.statusCode).toBe(302);
  expect(
    new URL(String(callback.headers.location), "http://gateway").searchParams.get("connectError"),
  ).toMatch(/database is unavailable/);

  await pg.start();
  const back = Date.now();
  let res = await get("/api/products");
  while (res.statusCode !== 200 && Date.now() - back < 5_000) res = await get("/api/products");
  const afterMs = Date.now() - back;
  expect({ status: res.statusCode, afterMs: afterMs < 1_000 ? "under a second" : afterMs }).toEqual(
    { status: 200, afterMs: "under a second" },
  );
  expect(await statuses()).toEqual(normally);
}, 60_000);

test("a URL import previewing through a database outage waits for it and resumes from the rows it had recorded, each row once", async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  // The first window (25 URLs) is previewed before the outage; the second one's pages answer during
  // it.
  const pages: Record<string, FixturePage> = {};
  for (let n = 1; n <= 50; n++)
    pages[`/p/${n}`] = { body: productPage(n), ...(n > 25 ? { gate } : {}) };
  const site = await startFixtureServer(pages);
  const worker = startScrapeWorker(gw, { fetchTimeoutMs: 20_000, concurrency: 4 });
  try {
    const urls = Array.from({ length: 50 }, (_, i) => site.url(`/p/${i + 1}`));
    const started = await post("/api/imports", { urls });
    expect(started.statusCode).toBe(202);
    const { id } = started.json<Import>();
    await eventually(
      async () => expect((await get(`/api/imports/${id}`)).json<Import>().progress.done).toBe(25),
      20_000,
    );

    await stopDatabase();
    open();
    // Every page of the second window fetched and its result handed back while PostgreSQL is down.
    await eventually(async () => {
      expect(new Set(site.hits).size).toBe(50);
      expect(await gw.app.queues.scrape.getJobCounts("waiting", "active", "delayed")).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
      });
    }, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expectUnavailable(await get(`/api/imports/${id}`), "the import");
    await pg.start();

    const deadline = Date.now() + 20_000;
    let view = (await get(`/api/imports/${id}`)).json<Import>();
    while (view.status === "previewing" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      view = (await get(`/api/imports/${id}`)).json<Import>();
    }
    expect(view).toMatchObject({
      status: "ready",
      error: null,
      progress: { done: 50, total: 50 },
      counts: { create: 50, error: 0 },
    });
    const rows = await gw.db.importRow.groupBy({
      by: ["row"],
      where: { importId: id },
      _count: { _all: true },
    });
    expect(rows.map((r) => r._count._all)).toEqual(Array(50).fill(1));
  } finally {
    await worker.close();
    await site.close();
  }
}, 90_000);
