import { createTestOrg, startFixtureServer, type TestOrg } from "@catalog/testing";
import type { HistoryEntry, List, ProductListItem, UrlImportResult } from "../src/api-types.js";
import { errorOf, login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";
import { failed, imported } from "./import-items.js";

const productPage = (
  name: string,
  sku: string,
  price: string,
) => `<!doctype html><html><head><title>${name} | Shop</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${name}","sku":"${sku}",
"image":"/img/${sku}.jpg","brand":{"@type":"Brand","name":"Acme"},
"offers":{"@type":"Offer","price":"${price}","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>
</head><body><h1>${name}</h1></body></html>`;

let gw: Gateway;
let t: TestOrg;
let cookie: string;
let site: Awaited<ReturnType<typeof startFixtureServer>>;
let worker: { close(): Promise<void> };

beforeAll(async () => {
  site = await startFixtureServer({
    "/p/lamp": { body: productPage("Desk Lamp", "LAMP-9", "39.90") },
    "/p/chair": { body: productPage("Oak Chair", "CHAIR-9", "120.00") },
    "/p/blog": {
      body: "<html><head><title>Our blog</title></head><body><p>No products here.</p></body></html>",
    },
    "/p/slow": { body: productPage("Slow Sofa", "SOFA-9", "999.00"), delayMs: 5000 },
    "/p/gone": { body: "gone", status: 404 },
  });
  gw = await startGateway({ LOCAL_INGEST: "true", IMPORT_DEADLINE_MS: "2500" });
  t = await createTestOrg(gw.db, "import-urls");
  cookie = await login(gw.app, t.member.email, t.member.password);
  worker = startScrapeWorker(gw, { fetchTimeoutMs: 4000, concurrency: 4 });
});
afterAll(async () => {
  await worker.close();
  await gw.close();
  await site.close();
});

const post = (path: string, payload: object) =>
  gw.app.inject({ method: "POST", url: path, headers: { cookie }, payload });
const productCount = () => gw.db.product.count({ where: { orgId: t.org.id } });

test("a preview answers an outcome per URL and stores nothing", async () => {
  const res = await post("/api/import/url", {
    urls: [site.url("/p/lamp"), site.url("/p/blog"), site.url("/p/gone")],
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<UrlImportResult>();
  expect(body.persisted).toBe(false);
  expect(body.items[0]).toMatchObject({
    url: site.url("/p/lamp"),
    ok: true,
    action: "preview",
    wouldBe: "created",
    product: {
      title: "Desk Lamp",
      sku: "LAMP-9",
      price: { amount: "39.90", currency: "EUR" },
      brand: "Acme",
      images: [site.url("/img/LAMP-9.jpg")],
      availability: "InStock",
      sourceUrl: site.url("/p/lamp"),
    },
  });
  expect(body.items[1]).toMatchObject({ url: site.url("/p/blog"), ok: false });
  expect(failed(body.items[1]).error).toMatch(/no product/i);
  expect(body.items[2]).toMatchObject({ ok: false });
  expect(failed(body.items[2]).error).toMatch(/404/);
  expect(body.summary).toEqual({ requested: 3, succeeded: 1, failed: 2, created: 1, updated: 0 });
  expect(await productCount()).toBe(0);
});

test("persist stores the products; importing again updates the same ones", async () => {
  const first = (
    await post("/api/import/url", {
      urls: [site.url("/p/lamp"), site.url("/p/chair")],
      persist: true,
    })
  ).json<UrlImportResult>();
  expect(first.items.map((i) => (i.ok ? i.action : i.error))).toEqual(["created", "created"]);
  const { id } = imported(first.items[0]).product;
  expect(await productCount()).toBe(2);
  const again = (
    await post("/api/v1/scrape", { urls: [site.url("/p/lamp")], persist: true })
  ).json<UrlImportResult>();
  expect(again.items[0]).toMatchObject({
    ok: true,
    action: "updated",
    product: { id },
  });
  expect(await productCount()).toBe(2);
  const listed = (
    await gw.app.inject({ method: "GET", url: "/api/products?q=desk lamp", headers: { cookie } })
  ).json<List<ProductListItem>>();
  expect(listed.total).toBe(1);
  const history = (
    await gw.app.inject({
      method: "GET",
      url: `/api/products/${id}/history`,
      headers: { cookie },
    })
  ).json<List<HistoryEntry>>();
  expect(history.items.at(-1)).toMatchObject({
    action: "imported",
    actor: { type: "user", id: t.member.id },
  });
});

test("a page that does not answer in time is a failed item, and the request still answers", async () => {
  const started = Date.now();
  const res = await post("/api/import/url", { urls: [site.url("/p/slow"), site.url("/p/chair")] });
  expect(res.statusCode).toBe(200);
  expect(Date.now() - started).toBeLessThan(4500);
  const body = res.json<UrlImportResult>();
  expect(body.items[0]).toMatchObject({ ok: false });
  expect(failed(body.items[0]).error).toMatch(/no answer within/);
  expect(body.items[1]).toMatchObject({ ok: true });
});

test.each([
  [{ urls: [] }, /"urls"/],
  [{}, /"urls" is required/],
  [{ urls: ["ftp://example.com/x"] }, /urls\[0\]/],
  [{ urls: ["not a url"] }, /urls\[0\]/],
  [{ urls: Array.from({ length: 51 }, (_, i) => `https://shop.test/${i}`) }, /"urls"/],
  [{ urls: ["https://shop.test/"], persist: "yes" }, /"persist"/],
])("bad input %j is 422 naming the field", async (payload, message) => {
  const res = await post("/api/import/url", payload);
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(message);
});

test("import routes need a session", async () => {
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/import/url",
    payload: { urls: [site.url("/p/lamp")] },
  });
  expect(res.statusCode).toBe(401);
});

describe("without local ingest", () => {
  let strict: Gateway;
  let strictCookie: string;
  beforeAll(async () => {
    strict = await startGateway({ LOCAL_INGEST: "false" });
    strictCookie = await login(strict.app, t.member.email, t.member.password);
  });
  afterAll(() => strict.close());

  test.each([
    "http://127.0.0.1:9/p",
    "http://localhost/p",
    "http://[::1]/p",
    "http://[::ffff:127.0.0.1]/p",
    "http://2130706433/p",
    "http://0177.0.0.1/p",
    "http://10.0.0.5/p",
    "http://169.254.169.254/latest/meta-data",
  ])("%s is refused with 422 naming the URL, before anything is fetched", async (url) => {
    const hitsBefore = site.hits.length;
    const res = await strict.app.inject({
      method: "POST",
      url: "/api/import/url",
      headers: { cookie: strictCookie },
      payload: { urls: ["https://shop.example/ok", url] },
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/urls\[1\]/);
    expect(site.hits.length).toBe(hitsBefore);
  });

  test("several refused URLs are each named with its reason, not only the first", async () => {
    const res = await strict.app.inject({
      method: "POST",
      url: "/api/import/url",
      headers: { cookie: strictCookie },
      payload: {
        urls: ["http://10.0.0.5/p", "https://shop.example/ok", "http://127.0.0.1:9/p", "ftp://x/p"],
      },
    });
    expect(res.statusCode).toBe(422);
    const refusals = errorOf(res).split(/;\s*(?=urls\[\d+\]:)/);
    expect(refusals).toEqual([
      expect.stringMatching(/^urls\[0\]: http:\/\/10\.0\.0\.5\/p is a private address/),
      expect.stringMatching(/^urls\[2\]: http:\/\/127\.0\.0\.1:9\/p is a loopback address/),
      expect.stringMatching(/^urls\[3\]: ftp:\/\/x\/p is not an http\(s\) address$/),
    ]);
  });
});
