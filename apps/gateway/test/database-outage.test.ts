// PostgreSQL stopped for a few seconds under a running gateway (a server of this file's own,
// stopped and started again): clients are told to come back (503, Retry-After), the gateway
// answers normally as soon as the server is back, and an import previewing meanwhile carries on.
import type { LightMyRequestResponse } from "fastify";
import { createTestOrg, eventually, makeProduct, startPrivatePostgres, type PrivatePostgres, type TestOrg } from "@catalog/testing";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix } from "./publishing-fixtures.js";

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
  gw = await startGateway({ DATABASE_URL: pg.url, REDIS_PREFIX: privatePrefix("db-outage"), LOCAL_INGEST: "true", IMPORT_DEADLINE_MS: "20000" });
  t = await createTestOrg(gw.db, "db-outage");
  cookie = await login(gw.app, t.member.email, t.member.password);
}, 60_000);
// A test that failed during its outage leaves the server running for the next.
afterEach(() => pg.start());
afterAll(async () => {
  await gw?.close();
  await pg?.close();
});

/** Stops PostgreSQL and waits until the gateway has noticed (its read caches are off), so no answer below comes from memory. */
async function stopDatabase() {
  await pg.stop();
  await eventually(async () => expect(gw.app.caches.sessions.enabled).toBe(false), 10_000);
}

const get = (url: string) => gw.app.inject({ method: "GET", url, headers: { cookie } });
const post = (url: string, payload: object, headers: Record<string, string> = { cookie }) => gw.app.inject({ method: "POST", url, headers, payload });

function expectUnavailable(res: LightMyRequestResponse, what: string) {
  expect({ what, status: res.statusCode }).toEqual({ what, status: 503 });
  expect(res.headers["retry-after"]).toBe("5");
  expect(errorOf(res)).toMatch(/database is unavailable/);
}

test("while PostgreSQL is down, database-backed routes answer 503 with Retry-After and { error }; within a second of its return they answer normally", async () => {
  const product = await makeProduct(gw.db, t.org.id, { title: "Outage kettle", sku: "OUT-KETTLE", price: { amount: "10.00", currency: "EUR" } });
  const destination = await connectStandin(gw, t.org.id, "outage store");
  const requests: Record<string, () => Promise<LightMyRequestResponse>> = {
    "list products": () => get("/api/products"),
    "read a product": () => get(`/api/products/${product.id}`),
    "edit a product": () => gw.app.inject({ method: "PATCH", url: `/api/products/${product.id}`, headers: { cookie }, payload: { title: "Outage kettle 2", version: 1 } }),
    "the session": () => get("/api/auth/session"),
    "sign in": () => post("/api/auth/session", { email: t.member.email, password: t.member.password }, {}),
    publish: () => post("/api/products/publish", { productIds: [product.id], destinationAccountIds: [destination.id] }),
    "sync logs": () => get("/api/sync-logs"),
    destinations: () => get("/api/destinations"),
    imports: () => get("/api/imports"),
    "extension ingest": () => post("/api/extension/ingest", { url: "https://shop.example/outage", html: productPage(0) }, { "x-service-api-key": t.apiKey }),
  };

  await stopDatabase();
  for (const [what, request] of Object.entries(requests)) expectUnavailable(await request(), what);
  expect((await gw.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(503);

  await pg.start();
  const back = Date.now();
  let res = await get("/api/products");
  while (res.statusCode !== 200 && Date.now() - back < 5_000) res = await get("/api/products");
  expect({ status: res.statusCode, afterMs: Date.now() - back < 1_000 ? "under a second" : Date.now() - back }).toEqual({ status: 200, afterMs: "under a second" });
  const statuses = Object.fromEntries(await Promise.all(Object.entries(requests).map(async ([what, request]) => [what, (await request()).statusCode])));
  expect(statuses).toEqual({
    "list products": 200, "read a product": 200, "edit a product": 200, "the session": 200, "sign in": 200, publish: 200,
    "sync logs": 200, destinations: 200, imports: 200, "extension ingest": 200,
  });
}, 60_000);
