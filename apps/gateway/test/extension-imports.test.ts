import { createTestOrg, startFixtureServer, type TestOrg } from "@catalog/testing";
import type { Import, ImportRow, List } from "../src/api-types.js";
import { errorOf, login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";

const productPage = (name: string, sku: string, price: string) => ({
  body: `<!doctype html><html><head><title>${name}</title><script type="application/ld+json">${JSON.stringify(
    {
      "@context": "https://schema.org",
      "@type": "Product",
      name,
      sku,
      offers: { "@type": "Offer", price, priceCurrency: "EUR" },
    },
  )}</script></head><body><h1>${name}</h1></body></html>`,
});

let gw: Gateway;
let a: TestOrg;
let b: TestOrg;
let site: Awaited<ReturnType<typeof startFixtureServer>>;
let worker: { close(): Promise<void> };

beforeAll(async () => {
  site = await startFixtureServer({
    "/p/speckled-mug": productPage("Speckled mug", "MUG-SPK-1", "18.00"),
    "/p/tall-mug": productPage("Tall mug", "MUG-TLL-1", "19.50"),
  });
  gw = await startGateway({ LOCAL_INGEST: "true", IMPORT_DEADLINE_MS: "8000" });
  a = await createTestOrg(gw.db, "ext-imports-a");
  b = await createTestOrg(gw.db, "ext-imports-b");
  worker = startScrapeWorker(gw, { fetchTimeoutMs: 5000, concurrency: 4 });
});
afterAll(async () => {
  await worker.close();
  await gw.close();
  await site.close();
});

const asKey = (method: "GET" | "POST", url: string, payload?: object, key = a.apiKey) =>
  gw.app.inject({
    method,
    url,
    headers: { "x-service-api-key": key },
    ...(payload ? { payload } : {}),
  });

async function settle(id: string, status: Import["status"]): Promise<Import> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const body = (await asKey("GET", `/api/extension/imports/${id}`)).json<Import>();
    if (body.status !== status) return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("the products chosen on a category page: read, then stored in the key's org, as the dashboard's imports are", async () => {
  const started = await asKey("POST", "/api/extension/imports", {
    urls: [site.url("/p/speckled-mug"), site.url("/p/tall-mug"), site.url("/p/gone")],
  });
  expect(started.statusCode).toBe(202);
  expect(started.json()).toMatchObject({
    kind: "urls",
    status: "previewing",
    progress: { total: 3 },
  });
  const ready = await settle(started.json<Import>().id, "previewing");
  expect(ready).toMatchObject({ status: "ready", counts: { create: 2, error: 1 } });
  const rows = (
    await asKey("GET", `/api/extension/imports/${ready.id}/rows?page=1&pageSize=50`)
  ).json<List<ImportRow>>();
  expect(rows.items.map((r) => [r.row, r.outcome, r.product?.title ?? null])).toEqual([
    [1, "create", "Speckled mug"],
    [2, "create", "Tall mug"],
    [3, "error", null],
  ]);
  expect(await gw.db.product.count({ where: { orgId: a.org.id } })).toBe(0);

  const store = await asKey("POST", `/api/extension/imports/${ready.id}/store`, { skipRows: [] });
  expect(store.statusCode).toBe(202);
  expect(await settle(ready.id, "storing")).toMatchObject({
    status: "stored",
    result: { created: 2, updated: 0 },
  });
  const stored = await gw.db.product.findMany({
    where: { orgId: a.org.id },
    orderBy: { title: "asc" },
  });
  expect(stored.map((p) => [p.title, p.source, p.sourceUrl])).toEqual([
    ["Speckled mug", "scrape", site.url("/p/speckled-mug")],
    ["Tall mug", "scrape", site.url("/p/tall-mug")],
  ]);
  const history = await gw.db.productHistory.findFirstOrThrow({
    where: { productId: stored[0]!.id },
  });
  expect([history.action, history.actorType]).toEqual(["imported", "apiKey"]);

  // The dashboard lists it with the org's other imports.
  const cookie = await login(gw.app, a.member.email, a.member.password);
  const listed = (
    await gw.app.inject({ method: "GET", url: "/api/imports", headers: { cookie } })
  ).json<List<Import>>();
  expect(listed.items[0]).toMatchObject({ id: ready.id, status: "stored" });
});

test("at most 50 pages a go; another org's import is 404; a key cannot list or discard imports", async () => {
  const many = Array.from({ length: 51 }, (_, i) => site.url(`/p/${i}`));
  const tooMany = await asKey("POST", "/api/extension/imports", { urls: many });
  expect(tooMany.statusCode).toBe(422);
  expect(errorOf(tooMany)).toMatch(/urls.*50/);
  const empty = await asKey("POST", "/api/extension/imports", { urls: [] });
  expect(empty.statusCode).toBe(422);

  const mine = (
    await asKey("POST", "/api/extension/imports", { urls: [site.url("/p/tall-mug")] })
  ).json<Import>();
  const theirs = await asKey("GET", `/api/extension/imports/${mine.id}`, undefined, b.apiKey);
  expect(theirs.statusCode).toBe(404);
  expect(
    (await asKey("POST", `/api/extension/imports/${mine.id}/store`, {}, b.apiKey)).statusCode,
  ).toBe(404);
  expect((await asKey("GET", "/api/extension/imports")).statusCode).toBe(404);
  expect(
    (
      await gw.app.inject({
        method: "DELETE",
        url: `/api/extension/imports/${mine.id}`,
        headers: { "x-service-api-key": a.apiKey },
      })
    ).statusCode,
  ).toBe(404);
  // No key, no import; a session is no key.
  const cookie = await login(gw.app, a.member.email, a.member.password);
  expect(
    (
      await gw.app.inject({
        method: "GET",
        url: `/api/extension/imports/${mine.id}`,
        headers: { cookie },
      })
    ).statusCode,
  ).toBe(401);
  await settle(mine.id, "previewing");
});

test("the extension's imports refuse private addresses as the dashboard's do", async () => {
  const strict = await startGateway({ LOCAL_INGEST: "false" });
  try {
    const org = await createTestOrg(strict.db, "ext-imports-strict");
    const res = await strict.app.inject({
      method: "POST",
      url: "/api/extension/imports",
      headers: { "x-service-api-key": org.apiKey },
      payload: { urls: ["http://169.254.169.254/latest/meta-data"] },
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/169\.254\.169\.254/);
  } finally {
    await strict.close();
  }
});
