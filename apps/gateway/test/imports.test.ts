import iconv from "iconv-lite";
import {
  createTestOrg,
  makeProduct,
  startFixtureServer,
  type FixturePage,
  type TestOrg,
} from "@catalog/testing";
import type { HistoryEntry, Import, ImportRow, List } from "../src/api-types.js";
import { errorOf, login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";
import { stringMatching } from "@catalog/test-support/matchers";
import { documentUpload, multipart } from "./multipart.js";
import type { OpenApiDocument } from "./openapi-document.js";

const productPage = (
  name: string,
  sku: string,
  price: string,
) => `<!doctype html><html><head><title>${name}</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${name}","sku":"${sku}",
"offers":{"@type":"Offer","price":"${price}","priceCurrency":"EUR"}}</script></head><body><h1>${name}</h1></body></html>`;

let gw: Gateway;
let a: TestOrg;
let b: TestOrg;
let cookieA: string;
let cookieB: string;
let pages: Record<string, FixturePage>;
let site: Awaited<ReturnType<typeof startFixtureServer>>;
let worker: { close(): Promise<void> };

beforeAll(async () => {
  pages = {
    "/p/kettle": { body: productPage("Steel Kettle", "IMP-KETTLE", "39.90") },
    "/p/blog": {
      body: "<html><head><title>Blog</title></head><body><p>No products.</p></body></html>",
    },
    "/p/nosku": { body: productPage("Clay Mug", "", "12.00").replace('"sku":"",', "") },
    "/p/slow": { body: productPage("Slow Sofa", "IMP-SOFA", "999.00"), delayMs: 3000 },
  };
  site = await startFixtureServer(pages);
  gw = await startGateway({
    LOCAL_INGEST: "true",
    IMPORT_DEADLINE_MS: "8000",
    DOCUMENT_MAX_BYTES: "400000",
  });
  a = await createTestOrg(gw.db, "imports-a");
  b = await createTestOrg(gw.db, "imports-b");
  cookieA = await login(gw.app, a.member.email, a.member.password);
  cookieB = await login(gw.app, b.member.email, b.member.password);
  worker = startScrapeWorker(gw, { fetchTimeoutMs: 5000, concurrency: 4 });
});
afterAll(async () => {
  await worker.close();
  await gw.close();
  await site.close();
});

const upload = (
  file: string | Buffer,
  filename: string,
  fields: Record<string, string> = {},
  type = "text/csv",
  cookie = cookieA,
) => {
  const body = documentUpload(file, filename, fields, type);
  return gw.app.inject({
    method: "POST",
    url: "/api/imports",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
};
const get = (url: string, cookie = cookieA) =>
  gw.app.inject({ method: "GET", url, headers: { cookie } });
const post = (url: string, payload?: object, cookie = cookieA) =>
  gw.app.inject({ method: "POST", url, headers: { cookie }, ...(payload ? { payload } : {}) });
const productCount = (orgId = a.org.id) => gw.db.product.count({ where: { orgId } });

/** Polls the import until it leaves `status`, recording every progress it showed on the way. */
async function settle(
  id: string,
  status: Import["status"] = "previewing",
  seen: Import["progress"][] = [],
): Promise<Import> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const res = await get(`/api/imports/${id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<Import>();
    seen.push(body.progress);
    if (body.status !== status) return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const rowsOf = async (id: string, query = "") =>
  (await get(`/api/imports/${id}/rows?pageSize=100${query}`)).json<List<ImportRow>>();

test("a document preview shows create, update, unchanged and error rows with diffs, and stores nothing", async () => {
  const updated = await makeProduct(gw.db, a.org.id, {
    title: "Oak Table",
    sku: "IMP-TABLE",
    price: { amount: "100.00", currency: "EUR" },
  });
  const same = await makeProduct(gw.db, a.org.id, {
    title: "Pine Shelf",
    sku: "IMP-SHELF",
    price: { amount: "20.00", currency: "EUR" },
  });
  const csv =
    "Title,SKU,Price\nLinen Lamp,IMP-LAMP,15.00\nOak Table,IMP-TABLE,120.00\nPine Shelf,IMP-SHELF,20.00\n,IMP-NOTITLE,5.00\n";
  const res = await upload(csv, "catalog.csv", { currency: "EUR" });
  expect(res.statusCode).toBe(202);
  expect(res.json<Import>()).toMatchObject({
    kind: "document",
    name: "catalog.csv",
    status: "previewing",
    currency: "EUR",
    progress: { total: 4 },
  });
  const done = await settle(res.json<Import>().id);
  expect(done).toMatchObject({
    status: "ready",
    error: null,
    progress: { done: 4, total: 4 },
    counts: { create: 1, update: 1, unchanged: 1, error: 1, skipped: 0 },
    result: null,
  });

  const rows = await rowsOf(done.id);
  expect(rows.total).toBe(4);
  const [create, update, unchanged, error] = rows.items;
  expect(create).toMatchObject({
    row: 2,
    outcome: "create",
    match: null,
    product: { title: "Linen Lamp", sku: "IMP-LAMP", price: { amount: "15.00", currency: "EUR" } },
    skipped: false,
    stored: null,
  });
  expect(create?.changes.title).toEqual({ from: null, to: "Linen Lamp" });
  expect(update).toMatchObject({
    row: 3,
    outcome: "update",
    match: { productId: updated.id, title: "Oak Table", sku: "IMP-TABLE", by: "sku" },
  });
  expect(update?.changes).toEqual({
    price: {
      from: { amount: "100.00", currency: "EUR" },
      to: { amount: "120.00", currency: "EUR" },
    },
  });
  expect(unchanged).toMatchObject({
    row: 4,
    outcome: "unchanged",
    match: { productId: same.id, by: "sku" },
    changes: {},
  });
  expect(error).toMatchObject({ row: 5, outcome: "error", match: null, product: null });
  expect(error?.error).toMatch(/title/i);

  const onlyUpdates = await rowsOf(done.id, "&outcome=update");
  expect(onlyUpdates.items.map((r: { row: number }) => r.row)).toEqual([3]);
  expect(await productCount()).toBe(2);
  const listed = (await get("/api/v1/imports")).json<List<Import>>();
  expect(listed.items[0]).toMatchObject({ id: done.id, status: "ready" });
});

test("storing with a row skipped stores exactly the other previewed rows, with history", async () => {
  const existing = await makeProduct(gw.db, a.org.id, {
    title: "Wool Rug",
    sku: "IMP-RUG",
    price: { amount: "80.00", currency: "EUR" },
  });
  const csv =
    "Title,SKU,Price,Currency\nCotton Towel,IMP-TOWEL,9.00,EUR\nBamboo Tray,IMP-TRAY,14.00,EUR\nWool Rug,IMP-RUG,75.00,EUR\n";
  const { id } = (await upload(csv, "skip.csv")).json<Import>();
  await settle(id);
  const before = await productCount();

  const res = await post(`/api/imports/${id}/store`, { skipRows: [3, 999] });
  expect(res.statusCode).toBe(202);
  expect(res.json<Import>()).toMatchObject({ status: "storing", counts: { skipped: 1 } });
  const stored = await settle(id, "storing");
  expect(stored).toMatchObject({
    status: "stored",
    error: null,
    result: { created: 1, updated: 1, unchanged: 0, skipped: 1 },
  });

  expect(await productCount()).toBe(before + 1);
  expect(await gw.db.product.findFirst({ where: { orgId: a.org.id, sku: "IMP-TRAY" } })).toBeNull();
  const towel = await gw.db.product.findFirstOrThrow({
    where: { orgId: a.org.id, sku: "IMP-TOWEL" },
  });
  const rug = await gw.db.product.findUniqueOrThrow({ where: { id: existing.id } });
  expect(rug.priceAmount?.toString()).toBe("75");
  const rows = (await rowsOf(id)).items;
  expect(
    rows.map(
      (r: {
        row: number;
        skipped: boolean;
        stored: string | null;
        storedProductId: string | null;
      }) => [r.row, r.skipped, r.stored, r.storedProductId],
    ),
  ).toEqual([
    [2, false, "created", towel.id],
    [3, true, null, null],
    [4, false, "updated", existing.id],
  ]);
  const history = (await get(`/api/products/${existing.id}/history`)).json<List<HistoryEntry>>();
  expect(history.items[0]).toMatchObject({
    action: "imported",
    actor: { type: "user", id: a.member.id },
    changes: { price: { to: { amount: "75.00" } } },
  });

  const again = await post(`/api/imports/${id}/store`, {});
  expect(again.statusCode).toBe(409);
  expect(errorOf(again)).toMatch(/stored/);
});

test("a URL import stores the values it previewed, even if the page changed since", async () => {
  const mug = await makeProduct(gw.db, a.org.id, {
    title: "Old Mug",
    sourceUrl: site.url("/p/nosku"),
  });
  const res = await post("/api/imports", {
    urls: [site.url("/p/kettle"), site.url("/p/blog"), site.url("/p/nosku")],
  });
  expect(res.statusCode).toBe(202);
  expect(res.json<Import>()).toMatchObject({
    kind: "urls",
    name: "3 pages from 127.0.0.1",
    status: "previewing",
    progress: { total: 3 },
  });
  const ready = await settle(res.json<Import>().id);
  expect(ready).toMatchObject({ status: "ready", counts: { create: 1, update: 1, error: 1 } });
  const rows = (await rowsOf(ready.id)).items;
  expect(rows[0]).toMatchObject({
    row: 1,
    url: site.url("/p/kettle"),
    outcome: "create",
    product: { title: "Steel Kettle", price: { amount: "39.90", currency: "EUR" } },
  });
  expect(rows[1]).toMatchObject({ row: 2, url: site.url("/p/blog"), outcome: "error" });
  expect(rows[1]?.error).toMatch(/no product/i);
  expect(rows[2]).toMatchObject({
    row: 3,
    outcome: "update",
    match: { productId: mug.id, title: "Old Mug", sku: null, by: "sourceUrl" },
    changes: { title: { from: "Old Mug", to: "Clay Mug" } },
  });

  pages["/p/kettle"] = { body: productPage("Steel Kettle", "IMP-KETTLE", "99.00") };
  const hits = site.hits.length;
  await post(`/api/imports/${ready.id}/store`);
  expect(await settle(ready.id, "storing")).toMatchObject({
    status: "stored",
    result: { created: 1, updated: 1, unchanged: 0, skipped: 0 },
  });
  const kettle = await gw.db.product.findFirstOrThrow({
    where: { orgId: a.org.id, sku: "IMP-KETTLE" },
  });
  expect(kettle.priceAmount?.toString()).toBe("39.9");
  expect(kettle.source).toBe("scrape");
  expect(site.hits.length).toBe(hits);
});

test("a large document's progress moves while it is previewed (with a time left) and while it is stored", async () => {
  const lines = Array.from(
    { length: 3000 },
    (_, i) => `Bulk item ${i},IMP-BULK-${i},${(i % 90) + 1}.50`,
  );
  const res = await upload(`Title,SKU,Price\n${lines.join("\n")}\n`, "bulk.csv", {
    currency: "USD",
  });
  expect(res.statusCode).toBe(202);
  expect(res.json<Import>().progress).toEqual({ done: 0, total: 3000, etaSeconds: null });
  const seen: { done: number; total: number | null; etaSeconds: number | null }[] = [];
  const ready = await settle(res.json<Import>().id, "previewing", seen);
  expect(ready).toMatchObject({
    status: "ready",
    progress: { done: 3000, total: 3000, etaSeconds: null },
    counts: { create: 3000 },
  });
  const midway = seen.filter((p) => p.done > 0 && p.done < 3000);
  expect(midway.length).toBeGreaterThan(0);
  expect(midway.every((p) => p.total === 3000 && typeof p.etaSeconds === "number")).toBe(true);
  expect((await rowsOf(ready.id, "&page=30")).items.at(-1)).toMatchObject({
    row: 3001,
    outcome: "create",
  });
  expect(
    await gw.db.product.count({ where: { orgId: a.org.id, sku: { startsWith: "IMP-BULK-" } } }),
  ).toBe(0);

  // Storing moves too, a batch at a time, though its one transaction commits only at the end.
  expect((await post(`/api/imports/${ready.id}/store`, {})).json<Import>().progress).toMatchObject({
    done: 0,
    total: 3000,
  });
  const storing: typeof seen = [];
  expect(await settle(ready.id, "storing", storing)).toMatchObject({
    status: "stored",
    progress: { done: 3000 },
    result: { created: 3000 },
  });
  expect(storing.some((p) => p.done > 0 && p.done < 3000)).toBe(true);
  expect(
    await gw.db.product.count({ where: { orgId: a.org.id, sku: { startsWith: "IMP-BULK-" } } }),
  ).toBe(3000);
});

test("another org sees none of it: every route answers 404", async () => {
  const { id } = (await upload("Title,SKU\nSecret Vase,IMP-VASE\n", "mine.csv")).json<Import>();
  await settle(id);
  for (const res of [
    await get(`/api/imports/${id}`, cookieB),
    await get(`/api/imports/${id}/rows`, cookieB),
    await post(`/api/imports/${id}/store`, {}, cookieB),
    await gw.app.inject({
      method: "DELETE",
      url: `/api/imports/${id}`,
      headers: { cookie: cookieB },
    }),
  ]) {
    expect(res.statusCode).toBe(404);
    errorOf(res);
  }
  expect(
    (await get("/api/imports", cookieB))
      .json<List<Import>>()
      .items.map((i: { id: string }) => i.id),
  ).not.toContain(id);
  expect((await get(`/api/imports/${id}`)).json<Import>().status).toBe("ready");
  expect((await get("/api/imports")).statusCode).toBe(200);
  expect((await gw.app.inject({ method: "GET", url: "/api/imports" })).statusCode).toBe(401);
});

test("a store that fails part way stores nothing, and the import says why", async () => {
  const lines = Array.from({ length: 1200 }, (_, i) => `Fragile ${i},IMP-FRAGILE-${i},3.00`);
  const { id } = (
    await upload(`Title,SKU,Price\n${lines.join("\n")}\n`, "fragile.csv", { currency: "EUR" })
  ).json<Import>();
  await settle(id);
  // The database refuses the 1,100th product: the first two batches of 500 have been written by
  // then.
  await gw.db
    .$executeRawUnsafe(`CREATE FUNCTION refuse_fragile() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.sku = 'IMP-FRAGILE-1099' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
  await gw.db.$executeRawUnsafe(
    "CREATE TRIGGER refuse_fragile BEFORE INSERT ON products FOR EACH ROW EXECUTE FUNCTION refuse_fragile()",
  );
  try {
    const before = await productCount();
    expect((await post(`/api/imports/${id}/store`, {})).statusCode).toBe(202);
    const failed = await settle(id, "storing");
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/^storing failed, nothing was stored/);
    expect(failed.error).not.toMatch(/refused for the test|INSERT|products/);
    expect(failed.result).toBeNull();
    expect(await productCount()).toBe(before);
    expect(await gw.db.importRow.count({ where: { importId: id, stored: { not: null } } })).toBe(0);
  } finally {
    await gw.db.$executeRawUnsafe("DROP TRIGGER refuse_fragile ON products");
    await gw.db.$executeRawUnsafe("DROP FUNCTION refuse_fragile()");
  }
});

test("a discarded preview keeps no rows and cannot be stored; storing a preview in progress is 409", async () => {
  const slow = (await post("/api/imports", { urls: [site.url("/p/slow")] })).json<Import>();
  const early = await post(`/api/imports/${slow.id}/store`, {});
  expect(early.statusCode).toBe(409);
  expect(errorOf(early)).toMatch(/previewing/);
  const discard = await gw.app.inject({
    method: "DELETE",
    url: `/api/imports/${slow.id}`,
    headers: { cookie: cookieA },
  });
  expect(discard.statusCode).toBe(204);
  expect((await get(`/api/imports/${slow.id}`)).json<Import>().status).toBe("discarded");
  expect((await rowsOf(slow.id)).total).toBe(0);
  expect((await post(`/api/imports/${slow.id}/store`, {})).statusCode).toBe(409);
  expect(
    (
      await gw.app.inject({
        method: "DELETE",
        url: `/api/imports/${slow.id}`,
        headers: { cookie: cookieA },
      })
    ).statusCode,
  ).toBe(204);
});

test("an import whose gateway stopped is reported interrupted; an expired one is gone", async () => {
  const { id } = (await upload("Title,SKU\nLost Lamp,IMP-LOST\n", "lost.csv")).json<Import>();
  await settle(id);
  // As a gateway that died mid-preview leaves it: previewing, its lease run out.
  await gw.db.import.update({
    where: { id },
    data: { status: "previewing", leaseUntil: new Date(Date.now() - 1000) },
  });
  expect((await get(`/api/imports/${id}`)).json<Import>()).toMatchObject({
    status: "failed",
    error: "interrupted: start the import again",
  });
  await gw.db.import.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  expect((await get(`/api/imports/${id}`)).statusCode).toBe(404);
  await get("/api/imports");
  expect(await gw.db.import.count({ where: { id } })).toBe(0);
});

test("a gateway that closes marks its imports in progress failed, so none stays previewing", async () => {
  const other = await startGateway({ LOCAL_INGEST: "true", IMPORT_DEADLINE_MS: "8000" });
  const cookie = await login(other.app, a.member.email, a.member.password);
  const started = await other.app.inject({
    method: "POST",
    url: "/api/imports",
    headers: { cookie },
    payload: { urls: [site.url("/p/slow")] },
  });
  expect(started.statusCode).toBe(202);
  await other.close();
  expect((await get(`/api/imports/${started.json<Import>().id}`)).json<Import>()).toMatchObject({
    status: "failed",
    error: stringMatching(/^interrupted/),
  });
});

test("an org may have only so many imports in progress at once", async () => {
  const c = await createTestOrg(gw.db, "imports-busy");
  const cookie = await login(gw.app, c.member.email, c.member.password);
  const lease = new Date(Date.now() + 60_000);
  await gw.db.import.createMany({
    data: Array.from({ length: 4 }, (_, i) => ({
      orgId: c.org.id,
      kind: "urls" as const,
      name: `busy ${i}`,
      leaseUntil: lease,
      expiresAt: lease,
    })),
  });
  const res = await post("/api/imports", { urls: [site.url("/p/kettle")] }, cookie);
  expect(res.statusCode).toBe(429);
  expect(errorOf(res)).toMatch(/4 imports in progress/);
  expect(res.headers["retry-after"]).toBe("15");
});

describe("bad input", () => {
  test.each([
    ["urls of the wrong type", { urls: "https://shop.example/p/1" }, /urls/],
    ["no URLs", { urls: [] }, /urls/],
    [
      "too many URLs",
      { urls: Array.from({ length: 501 }, (_, i) => `https://shop.example/p/${i}`) },
      /urls/,
    ],
    ["an unknown field", { urls: ["https://shop.example/p/1"], persist: true }, /persist/],
    ["a URL that is not http(s)", { urls: ["file:///etc/passwd"] }, /urls\[0\]/],
    ["a malformed URL", { urls: ["not a url"] }, /urls\[0\]/],
  ])("%s is 422 naming the field", async (_name, payload, field) => {
    const res = await post("/api/imports", payload);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(field);
  });

  test("a start with no body at all is 422 saying what to send, and no import is started", async () => {
    const before = (await get("/api/imports")).json<List<Import>>().total;
    const res = await post("/api/imports");
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/urls.*multipart/);
    expect((await get("/api/imports")).json<List<Import>>().total).toBe(before);
  });

  test("a private URL is 422 naming it unless local ingest is on", async () => {
    const strict = await startGateway({ LOCAL_INGEST: "false" });
    try {
      const cookie = await login(strict.app, a.member.email, a.member.password);
      const res = await strict.app.inject({
        method: "POST",
        url: "/api/imports",
        headers: { cookie },
        payload: { urls: ["https://shop.example/p/1", "http://169.254.169.254/latest/meta-data/"] },
      });
      expect(res.statusCode).toBe(422);
      expect(errorOf(res)).toMatch(/urls\[1\]/);
    } finally {
      await strict.close();
    }
  });

  test.each([
    [
      "a PNG",
      Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
      "photo.png",
      "image/png",
      415,
    ],
    [
      "a file over the limit",
      "Title,SKU\n" + "A product,SKU\n".repeat(40_000),
      "big.csv",
      "text/csv",
      413,
    ],
    ["an empty file", "", "empty.csv", "text/csv", 422],
    ["a header without rows", "Title,SKU,Price\n", "header.csv", "text/csv", 422],
    ["broken JSON", '[{"title": "A"}, {"title": ', "broken.json", "application/json", 422],
  ])("%s is refused and no import is started", async (_name, file, filename, type, status) => {
    const before = (await get("/api/imports")).json<List<Import>>().total;
    const res = await upload(file, filename, {}, type);
    expect(res.statusCode).toBe(status);
    errorOf(res);
    expect((await get("/api/imports")).json<List<Import>>().total).toBe(before);
  });

  test("bad multipart parts and store bodies are 422; unknown ids 404; a foreign origin 403", async () => {
    expect(errorOf(await upload("Title\nA\n", "a.csv", { currency: "euros" }))).toMatch(/currency/);
    const noFile = multipart([{ name: "currency", value: "EUR" }]);
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/imports",
      headers: { cookie: cookieA, ...noFile.headers },
      payload: noFile.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/"file"/);
    const { id } = (await upload("Title,SKU\nBad Body,IMP-BAD\n", "b.csv")).json<Import>();
    await settle(id);
    const badSkip = await post(`/api/imports/${id}/store`, { skipRows: ["two"] });
    expect(badSkip.statusCode).toBe(422);
    expect(errorOf(badSkip)).toMatch(/skipRows/);
    expect((await get("/api/imports/3f1c1f4e-0000-4000-8000-000000000000")).statusCode).toBe(404);
    expect((await get("/api/imports/not-an-id/rows")).statusCode).toBe(404);
    expect((await get(`/api/imports/${id}/rows?outcome=maybe`)).statusCode).toBe(422);
    const foreign = await gw.app.inject({
      method: "POST",
      url: "/api/imports",
      headers: { cookie: cookieA, origin: "https://evil.example" },
      payload: { urls: [site.url("/p/kettle")] },
    });
    expect(foreign.statusCode).toBe(403);
  });
});

/** The parts of the OpenAPI document (/docs/json) the next test reads. */
test("OpenAPI documents every import route under /api and /api/v1, with a summary, a description and its statuses", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const routes = [
    ["post", "/imports", ["202", "401", "413", "415", "422", "429"]],
    ["get", "/imports", ["200", "401", "422"]],
    ["get", "/imports/{id}", ["200", "401", "404"]],
    ["get", "/imports/{id}/rows", ["200", "401", "404", "422"]],
    ["post", "/imports/{id}/store", ["202", "401", "404", "409", "422"]],
    ["delete", "/imports/{id}", ["204", "401", "404", "409"]],
  ] as const;
  for (const prefix of ["/api", "/api/v1"]) {
    for (const [method, path, statuses] of routes) {
      const op = doc.paths[`${prefix}${path}`]?.[method];
      expect({
        route: `${method} ${prefix}${path}`,
        summary: typeof op?.summary,
        description: typeof op?.description,
      }).toEqual({ route: `${method} ${prefix}${path}`, summary: "string", description: "string" });
      expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining([...statuses]));
    }
  }
  const content = doc.paths["/api/imports"]?.post?.requestBody?.content;
  expect(content?.["application/json"]?.schema.properties?.urls?.maxItems).toBe(500);
  expect(Object.keys(content?.["multipart/form-data"]?.schema.properties ?? {})).toEqual([
    "currency",
    "encoding",
    "mapping",
    "file",
  ]);
});

test("a WooCommerce export without a currency: rows in document order, prices without a currency counted and named per row", async () => {
  // The variable product's variations come after a simple product, so the reader finishes row 2
  // last.
  const csv =
    "ID,Type,SKU,Name,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)\n" +
    '10,variable,IMP-WOO-TEE,Woo Tee,,,Size,"S, M"\n' +
    "11,simple,IMP-WOO-CAP,Woo Cap,12.00,,,\n" +
    "12,variation,IMP-WOO-TEE-S,Woo Tee S,18.00,IMP-WOO-TEE,Size,S\n" +
    "13,variation,IMP-WOO-TEE-M,Woo Tee M,18.00,IMP-WOO-TEE,Size,M\n";
  const ready = await settle((await upload(csv, "woo.csv")).json<Import>().id);
  expect(ready).toMatchObject({
    status: "ready",
    currency: null,
    counts: { create: 2, noCurrency: 2 },
  });
  const rows = (await rowsOf(ready.id)).items;
  expect(rows.map((r) => [r.row, r.product?.sku])).toEqual([
    [2, "IMP-WOO-TEE"],
    [3, "IMP-WOO-CAP"],
  ]);
  for (const row of rows) {
    expect(row.product?.price).toBeNull();
    expect(row.warnings).toEqual([
      stringMatching(
        /^the price 1\d\.00 has no currency, so the product is stored without a price/,
      ),
    ]);
  }

  // With the currency chosen, the same file keeps its prices and warns of nothing.
  const priced = await settle(
    (await upload(csv, "woo.csv", { currency: "USD" })).json<Import>().id,
  );
  expect(priced).toMatchObject({ status: "ready", counts: { create: 2, noCurrency: 0 } });
  const [tee, cap] = (await rowsOf(priced.id)).items;
  // A variable product's prices are its variants' (as WooCommerce keeps them).
  expect(tee?.product?.variants.map((v) => v.price)).toEqual([
    { amount: "18.00", currency: "USD" },
    { amount: "18.00", currency: "USD" },
  ]);
  expect(cap?.product?.price).toEqual({ amount: "12.00", currency: "USD" });
  expect([tee?.warnings, cap?.warnings]).toEqual([[], []]);
});

test("a document import says which encoding its CSV is read in: detected, or named by the encoding part", async () => {
  const csv =
    "Title,SKU,Price\n" +
    "商品名電気ケトル,IMP-JP-1,3980\n" +
    "スチームアイロン,IMP-JP-2,4980\n" +
    "コードレス掃除機,IMP-JP-3,19800\n" +
    "炊飯器でおいしいご飯が炊ける,IMP-JP-4,12800\n";
  const started = await upload(iconv.encode(csv, "shift_jis"), "jp.csv", { currency: "JPY" });
  expect(started.statusCode).toBe(202);
  expect(started.json<Import>()).toMatchObject({
    kind: "document",
    encoding: { name: "shift_jis", source: "detected" },
  });
  const ready = await settle(started.json<Import>().id);
  expect(ready).toMatchObject({
    status: "ready",
    encoding: { name: "shift_jis", source: "detected" },
    counts: { create: 4, error: 0 },
  });
  expect((await rowsOf(ready.id)).items.map((r) => r.product?.title)).toEqual([
    "商品名電気ケトル",
    "スチームアイロン",
    "コードレス掃除機",
    "炊飯器でおいしいご飯が炊ける",
  ]);

  const named = await settle(
    (
      await upload(iconv.encode(csv, "euc-jp"), "jp.csv", { currency: "JPY", encoding: "EUC-JP" })
    ).json<Import>().id,
  );
  expect(named).toMatchObject({
    status: "ready",
    encoding: { name: "euc-jp", source: "named" },
    counts: { create: 4 },
  });
  const listed = (await get("/api/imports"))
    .json<List<Import>>()
    .items.find((i) => i.id === named.id);
  expect(listed?.encoding).toEqual({ name: "euc-jp", source: "named" });

  const json = await settle(
    (
      await upload(
        JSON.stringify([{ title: "Mug", sku: "IMP-JSON-ENC" }]),
        "p.json",
        {},
        "application/json",
      )
    ).json<Import>().id,
  );
  expect(json.encoding).toBeNull();

  const before = (await get("/api/imports")).json<List<Import>>().total;
  const unknown = await upload(csv, "jp.csv", { encoding: "no-such-encoding" });
  expect(unknown.statusCode).toBe(400);
  expect(errorOf(unknown)).toMatch(/"no-such-encoding" is not a known text encoding/);
  expect((await get("/api/imports")).json<List<Import>>().total).toBe(before);
});
