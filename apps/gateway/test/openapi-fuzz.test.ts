// Every operation of the OpenAPI document, sent valid and broken requests generated from its own
// schemas (openapi-fuzz-requests.ts) with real credentials, against the real gateway, PostgreSQL
// and Redis. Any 5xx, undocumented status or body its schema refuses is a finding, printed with
// its seed and request. Deterministic: a fixed seed (the n-th operation's is SEED + n) and a fixed
// number of requests per operation; FUZZ_SEED and FUZZ_RUNS override them to explore further.
import fc from "fast-check";
import { newKeyringSpec } from "@catalog/db";
import { createTestOrg, makeProduct, startFixtureServer, type TestUser } from "@catalog/testing";
import { login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";
import { mismatchOf, type Answer } from "./openapi-fuzz-answers.js";
import {
  operationsOf,
  requestsFor,
  type FuzzContext,
  type FuzzRequest,
  type OpenApiPaths,
} from "./openapi-fuzz-requests.js";
import { connectStandin, privatePrefix } from "./publishing-fixtures.js";

const SEED = Number(process.env.FUZZ_SEED ?? 27_2026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const BODY_LIMIT = 64 * 1024;
const NOTIFICATIONS_SECRET = "fuzz-notifications-secret";
// Channels configured, their APIs on a loopback port where nothing listens: connecting answers its
// redirect, and no request can leave the machine (a callback never reaches a channel anyway: its
// state is never one a connect made).
const NOWHERE = "http://127.0.0.1:9";
const CHANNELS = {
  SHOPIFY_CLIENT_ID: "fuzz",
  SHOPIFY_CLIENT_SECRET: "fuzz",
  SHOPIFY_SHOP_URL: `${NOWHERE}/{shop}`,
  EBAY_CLIENT_ID: "fuzz",
  EBAY_CLIENT_SECRET: "fuzz",
  EBAY_RU_NAME: "fuzz",
  EBAY_AUTH_URL: `${NOWHERE}/authorize`,
  EBAY_API_URL: NOWHERE,
  ETSY_CLIENT_ID: "fuzz",
  ETSY_CLIENT_SECRET: "fuzz",
  ETSY_CONNECT_URL: `${NOWHERE}/connect`,
  ETSY_API_URL: NOWHERE,
  AMAZON_LWA_CLIENT_ID: "fuzz",
  AMAZON_LWA_CLIENT_SECRET: "fuzz",
  AMAZON_APP_ID: "fuzz",
  AMAZON_SELLER_CENTRAL_URL: NOWHERE,
  AMAZON_LWA_TOKEN_URL: `${NOWHERE}/token`,
  AMAZON_SPAPI_URL: NOWHERE,
  AMAZON_NOTIFICATIONS_SECRET: NOTIFICATIONS_SECRET,
};
const productPage = (name: string) =>
  `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",` +
  `"name":"${name}","offers":{"@type":"Offer","price":"9.90","priceCurrency":"EUR"}}</script></head><body><h1>${name}</h1></body></html>`;

let gw: Gateway;
let site: Awaited<ReturnType<typeof startFixtureServer>>;
let worker: { close(): Promise<void> };
let context: FuzzContext;
let users: TestUser[];

beforeAll(async () => {
  site = await startFixtureServer({
    "/p/lamp": { body: productPage("Lamp") },
    "/p/chair": { body: productPage("Chair") },
  });
  gw = await startGateway({
    // Its own rate-limit and login budgets, and room for the fuzz's failed sign-ins: a spent
    // budget would refuse the sign-in that follows each sign-out (below).
    REDIS_PREFIX: privatePrefix("fuzz"),
    LOGIN_RATE_LIMIT_MAX: "1000000",
    LOGIN_ADDRESS_RATE_LIMIT_MAX: "1000000",
    // A small body limit, so a body over it costs little to send; the scrape worker's pages are on
    // loopback.
    BODY_LIMIT: String(BODY_LIMIT),
    LOCAL_INGEST: "true",
    IMPORT_DEADLINE_MS: "5000",
    CREDENTIALS_KEYS: newKeyringSpec(),
    PUBLIC_URL: NOWHERE,
    ...CHANNELS,
  });
  worker = startScrapeWorker(gw, { fetchTimeoutMs: 4000, concurrency: 2 });
  const t = await createTestOrg(gw.db, "fuzz");
  users = [t.owner, t.member, t.admin];
  const cookies = await Promise.all(users.map((u) => login(gw.app, u.email, u.password)));
  const owner = { cookie: cookies[0]! };
  // Things for the requests to find: products, a destination, a publish run, an import, a key.
  const products = await Promise.all(
    ["Desk lamp", "Oak chair"].map((title, i) =>
      makeProduct(gw.db, t.org.id, { title, sku: `FUZZ-${i}` }),
    ),
  );
  const destination = await connectStandin(gw, t.org.id, "fuzz");
  const post = (url: string, payload: object) =>
    gw.app
      .inject({ method: "POST", url, headers: owner, payload })
      .then((r) => r.json<Record<string, unknown>>());
  const run = await post("/api/products/publish", {
    productIds: products.map((p) => p.id),
    destinationAccountIds: [destination.id],
  });
  const started = await post("/api/imports", { urls: [site.url("/p/lamp")] });
  const key = await post("/api/extension-keys", { name: "fuzz" });
  const channels = (
    await gw.app.inject({ method: "GET", url: "/api/channels", headers: owner })
  ).json<{ items: { channel: string }[] }>();
  context = {
    cookies,
    apiKey: t.apiKey,
    bearer: NOTIFICATIONS_SECRET,
    bodyLimit: BODY_LIMIT,
    dictionary: [
      ...products.map((p) => p.id),
      destination.id,
      String(run.runId),
      String(started.id),
      String((key.key as { id: string }).id),
      ...channels.items.map((c) => c.channel),
      site.url("/p/lamp"),
      site.url("/p/chair"),
    ],
    uri: (pick) =>
      pick([
        site.url("/p/lamp"),
        site.url("/p/chair"),
        site.url("/img/1.jpg"),
        "http://127.0.0.1:9/nothing",
      ]),
  };
});
afterAll(async () => {
  await worker.close();
  await gw.close();
  await site.close();
});

/** The answer as a client sees it; an event stream is read up to its first event, then left. */
async function send(request: FuzzRequest): Promise<Answer> {
  const res = await gw.app.inject({
    method: request.method as "GET",
    url: request.url,
    headers: request.headers,
    payload: request.payload,
    payloadAsStream: true,
  });
  const contentType = String(res.headers["content-type"] ?? "");
  const stream = res.stream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(Buffer.from(chunk));
    if (contentType.startsWith("text/event-stream")) {
      stream.destroy();
      break;
    }
  }
  // A sign-out ends the caller's session: sign that user in again, so later requests still reach
  // the handlers.
  const ended = res.cookies.some((c) => c.name === "sid" && c.value === "");
  const caller = context.cookies.indexOf(request.headers.cookie ?? "");
  if (ended && caller >= 0)
    context.cookies[caller] = await login(gw.app, users[caller]!.email, users[caller]!.password);
  return { status: res.statusCode, contentType, body: Buffer.concat(chunks).toString() };
}

const shown = (request: FuzzRequest) => {
  const payload =
    request.payload === undefined
      ? ""
      : ` body ${JSON.stringify(String(request.payload).slice(0, 300))}`;
  return `${request.method} ${request.url.slice(0, 300)} (${request.kind}) headers ${JSON.stringify(request.headers).slice(0, 300)}${payload}`;
};

test("every operation answers valid and broken requests with a documented status and body, never a 5xx", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiPaths>();
  const operations = operationsOf(doc);
  const findings = new Map<string, string>();
  let sent = 0;
  const started = Date.now();
  for (const [i, op] of operations.entries()) {
    await fc.assert(
      fc.asyncProperty(requestsFor(op, context), async (request) => {
        sent += 1;
        const answer = await send(request);
        const wrong = mismatchOf(op, answer);
        // One line per operation, kind of request and kind of mismatch, with the first request that
        // showed it.
        const key = `${op.operationId} ${request.kind}: ${wrong?.slice(0, 60)}`;
        if (wrong && !findings.has(key))
          findings.set(
            key,
            `${op.operationId} (seed ${SEED + i}) answered ${wrong}\n    to ${shown(request)}\n    with ${answer.body.slice(0, 300)}`,
          );
      }),
      { seed: SEED + i, numRuns: RUNS },
    );
  }
  console.log(
    `OpenAPI fuzz: seed ${SEED}, ${operations.length} operations, ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ${findings.size} findings`,
  );
  expect({ seed: SEED, findings: [...findings.values()] }).toEqual({ seed: SEED, findings: [] });
  expect(sent).toBe(operations.length * RUNS);
}, 180_000);
