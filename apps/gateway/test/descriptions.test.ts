// A description has one stored form on every write path (edits, URL and document imports, the
// import resource's preview and store, extension ingest): HTML cleaned against an allow-list,
// plain text escaped with its paragraphs and line breaks. A script, an event handler or a
// javascript: link never reaches a client, and importing the same source again is "unchanged".
import { createTestOrg, makeProduct, startFixtureServer, type TestOrg } from "@catalog/testing";
import { login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";
import { documentUpload } from "./multipart.js";
import type {
  HistoryEntry,
  Import,
  ImportRow,
  IngestResult,
  List,
  Product,
  ProductDetail,
  ProductListItem,
  UrlImportResult,
} from "../src/api-types.js";

/** What a shop's export or a hostile page may hold. */
const HOSTILE =
  `<p onclick="steal()">Soft <b>linen</b> shirt.</p><script>alert(1)</script><img src=x onerror="alert(2)">` +
  `<ul><li>Relaxed fit</li></ul><p><a href="javascript:alert(3)">click</a> and <a href="https://shop.example/care">care</a></p>`;
/** The same, as stored and shown. */
const CLEAN = `<p>Soft <b>linen</b> shirt.</p><ul><li>Relaxed fit</li></ul><p><a>click</a> and <a href="https://shop.example/care">care</a></p>`;
/** A plain-text description (a CSV cell, an extension field) and its stored form. */
const TEXT = "Stoneware & glaze, holds 350 ml.\nDishwasher safe.\n\nMade in Portugal <3";
const TEXT_STORED =
  "<p>Stoneware &amp; glaze, holds 350 ml.<br />Dishwasher safe.</p><p>Made in Portugal &lt;3</p>";

const csvCell = (text: string) => `"${text.replace(/"/g, '""')}"`;
/** A Shopify product export: its "Body (HTML)" column is HTML. */
const shopifyCsv = (sku: string, body: string) =>
  `Handle,Title,Body (HTML),Vendor,Variant SKU,Variant Price\nlinen-shirt-${sku},Linen Shirt,${csvCell(body)},Acme,${sku},49.00\n`;

let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway({ LOCAL_INGEST: "true", IMPORT_DEADLINE_MS: "8000" });
  t = await createTestOrg(gw.db, "descriptions");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const get = (url: string) => gw.app.inject({ method: "GET", url, headers: { cookie } });
const storedOf = async (id: string) =>
  (await gw.db.product.findUniqueOrThrow({ where: { id } })).description;

/** The fields of an imported (or previewed) row of a document or URL import that these tests read. */
interface ImportedItem {
  ok: true;
  action: string;
  changes: Record<string, unknown>;
  product: { id: string; description: string | null };
}

async function importDocument(csv: string, persist: boolean) {
  const body = documentUpload(csv, "export.csv", { persist: String(persist), currency: "EUR" });
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/import/document",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ items: ImportedItem[] }>().items[0]!;
}

test("an edit stores HTML cleaned and plain text as written, and answers, lists and records them so", async () => {
  const made = await makeProduct(gw.db, t.org.id, { title: "Linen shirt" });
  const edit = async (description: string | null) =>
    gw.app.inject({
      method: "PATCH",
      url: `/api/products/${made.id}`,
      headers: { cookie },
      payload: { description },
    });

  const hostile = await edit(HOSTILE);
  expect(hostile.statusCode).toBe(200);
  expect(hostile.json<Product>().description).toBe(CLEAN);
  expect(await storedOf(made.id)).toBe(CLEAN);
  expect((await get(`/api/products/${made.id}`)).json<ProductDetail>().description).toBe(CLEAN);
  const listed = (await get("/api/products?q=Linen%20shirt"))
    .json<List<ProductListItem>>()
    .items.find((p) => p.id === made.id);
  expect(listed?.description).toBe(CLEAN);

  const text = await edit(TEXT);
  expect(text.json<Product>().description).toBe(TEXT_STORED);
  expect(await storedOf(made.id)).toBe(TEXT_STORED);
  const history = (await get(`/api/products/${made.id}/history`)).json<List<HistoryEntry>>().items;
  expect(history[0]!.changes).toEqual({ description: { from: CLEAN, to: TEXT_STORED } });

  // Sending back what was stored changes nothing; only a script is no description at all.
  const same = await edit(TEXT_STORED);
  expect(same.json<Product>().version).toBe(text.json<Product>().version);
  expect((await edit("<script>alert(1)</script>")).json<Product>().description).toBeNull();
});

test("a row written before this rule (or by hand) is read clean: detail, list and history", async () => {
  const made = await makeProduct(gw.db, t.org.id, { title: "Old import" });
  await gw.db.$executeRaw`UPDATE products SET description = ${HOSTILE} WHERE id = ${made.id}::uuid`;
  await gw.db.productHistory.create({
    data: {
      orgId: t.org.id,
      productId: made.id,
      actorType: "system",
      action: "imported",
      changes: { description: { from: null, to: HOSTILE } },
    },
  });
  expect((await get(`/api/products/${made.id}`)).json<ProductDetail>().description).toBe(CLEAN);
  const listed = (await get("/api/products?q=Old%20import"))
    .json<List<ProductListItem>>()
    .items.find((p) => p.id === made.id);
  expect(listed?.description).toBe(CLEAN);
  const history = (await get(`/api/products/${made.id}/history`)).json<List<HistoryEntry>>().items;
  expect(history[0]!.changes.description).toEqual({ from: null, to: CLEAN });
});

test("a document import stores a Shopify export's HTML body cleaned, a plain cell as text, and the same file again is unchanged", async () => {
  const created = await importDocument(shopifyCsv("DESC-SHOP-1", HOSTILE), true);
  expect(created).toMatchObject({ action: "created", product: { description: CLEAN } });
  expect(await storedOf(created.product.id)).toBe(CLEAN);
  const again = await importDocument(shopifyCsv("DESC-SHOP-1", HOSTILE), false);
  expect(again).toMatchObject({ action: "preview", wouldBe: "updated", changes: {} });

  const plain = await importDocument(
    `Title,SKU,Price,Description\nGlazed mug,DESC-DOC-2,12.00,${csvCell(TEXT)}\n`,
    true,
  );
  expect(await storedOf(plain.product.id)).toBe(TEXT_STORED);
});

test("the import resource previews and stores the cleaned description", async () => {
  const body = documentUpload(shopifyCsv("DESC-RES-1", HOSTILE), "export.csv", { currency: "EUR" });
  const started = await gw.app.inject({
    method: "POST",
    url: "/api/imports",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
  expect(started.statusCode).toBe(202);
  const { id } = started.json<Import>();
  const settle = async (status: string) => {
    for (let i = 0; i < 2500; i++) {
      const current = (await get(`/api/imports/${id}`)).json<Import>();
      if (current.status !== status) return current;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`import ${id} still ${status}`);
  };
  expect(await settle("previewing")).toMatchObject({ status: "ready" });
  const rows = (await get(`/api/imports/${id}/rows`)).json<List<ImportRow>>().items;
  expect(rows[0]).toMatchObject({
    outcome: "create",
    product: { description: CLEAN },
    changes: { description: { from: null, to: CLEAN } },
  });
  // A row previewed before descriptions had one form (kept up to a week) holds it as given: it is
  // read clean too.
  await gw.db
    .$executeRaw`UPDATE import_rows SET product = jsonb_set(product, '{description}', to_jsonb(${HOSTILE}::text)),
    changes = jsonb_build_object('description', jsonb_build_object('from', null, 'to', ${HOSTILE}::text)) WHERE import_id = ${id}::uuid`;
  expect((await get(`/api/imports/${id}/rows`)).json<List<ImportRow>>().items[0]).toMatchObject({
    product: { description: CLEAN },
    changes: { description: { from: null, to: CLEAN } },
  });
  expect(
    (
      await gw.app.inject({
        method: "POST",
        url: `/api/imports/${id}/store`,
        headers: { cookie },
        payload: {},
      })
    ).statusCode,
  ).toBe(202);
  expect(await settle("storing")).toMatchObject({ status: "stored" });
  const stored = await gw.db.product.findFirstOrThrow({
    where: { orgId: t.org.id, sku: "DESC-RES-1" },
  });
  expect(stored.description).toBe(CLEAN);
});

test("extension ingest stores the description the extension sent cleaned; its preview of the same page is unchanged", async () => {
  const ingest = (payload: object) =>
    gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { "x-service-api-key": t.apiKey },
      payload,
    });
  const page = {
    url: "https://shop.example/p/linen-shirt",
    product: { title: "Linen shirt (extension)", sku: "DESC-EXT-1", description: HOSTILE },
  };
  const saved = await ingest(page);
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toMatchObject({ action: "created", product: { description: CLEAN } });
  expect(await storedOf(saved.json<IngestResult>().product.id)).toBe(CLEAN);
  const preview = await ingest({ ...page, persist: false });
  expect(preview.json()).toMatchObject({
    action: "preview",
    page: "product",
    wouldBe: "unchanged",
    changes: {},
    product: { description: CLEAN },
  });
  expect(
    (
      await ingest({
        url: "https://shop.example/p/mug",
        product: { title: "Mug (extension)", description: TEXT },
      })
    ).json<IngestResult>().product.description,
  ).toBe(TEXT_STORED);
});

test("a URL import stores the page's text description escaped, and importing the page again is unchanged", async () => {
  const page = `<html><head><script type="application/ld+json">{"@type":"Product","name":"Fish plate","sku":"DESC-URL-1",
    "description":"Fish &amp; chips plate, 5 &lt; 6","offers":{"price":"12.00","priceCurrency":"EUR"}}</script></head><body></body></html>`;
  const site = await startFixtureServer({ "/p/plate": { body: page } });
  const worker = startScrapeWorker(gw, { fetchTimeoutMs: 4000, concurrency: 1 });
  try {
    const importUrl = (persist: boolean) =>
      gw.app.inject({
        method: "POST",
        url: "/api/import/url",
        headers: { cookie },
        payload: { urls: [site.url("/p/plate")], persist },
      });
    const created = (await importUrl(true)).json<{ items: ImportedItem[] }>().items[0]!;
    expect(created).toMatchObject({
      ok: true,
      action: "created",
      product: { description: "<p>Fish &amp; chips plate, 5 &lt; 6</p>" },
    });
    expect(await storedOf(created.product.id)).toBe("<p>Fish &amp; chips plate, 5 &lt; 6</p>");
    expect((await importUrl(false)).json<UrlImportResult>().items[0]).toMatchObject({
      ok: true,
      wouldBe: "updated",
      changes: {},
    });
  } finally {
    await worker.close();
    await site.close();
  }
});
