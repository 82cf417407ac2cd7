import { createTestOrg, type TestOrg } from "@catalog/testing";
import type {
  ColumnMapping,
  ColumnsPreview,
  Import,
  ImportMapping,
  ImportMappingList,
  ImportRow,
  List,
} from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { stringContaining } from "@catalog/test-support/matchers";
import { documentUpload } from "./multipart.js";
import type { OpenApiDocument } from "./openapi-document.js";

// A merchant's own stock list (issue 31): headers the service does not recognise, as a
// spreadsheet program saves them (semicolons, decimal commas).
const HEADERS = ["Artikel", "Nummer", "VK", "Waehrungscode", "Lager", "Foto", "Farbe"];
const STOCK_LIST =
  `${HEADERS.join(";")}\n` +
  "Wollmütze;MAP-WM-1;19,90;EUR;12;https://shop.example/m1.jpg;Rot\n" +
  "Schal;MAP-SC-2;24,50;EUR;3;https://shop.example/s2.jpg;Blau\n" +
  "Handschuhe;MAP-HS-3;9,00;EUR;0;https://shop.example/h3.jpg;Grau\n";

const MAPPING: ColumnMapping = {
  columns: [
    { column: "Artikel", field: "title" },
    { column: "Nummer", field: "sku" },
    { column: "VK", field: "price" },
    { column: "Waehrungscode", field: "currency" },
    { column: "Lager", field: "quantity" },
    { column: "Foto", field: "images" },
    { column: "Farbe", field: "attribute", name: "Color" },
  ],
};

let gw: Gateway;
let a: TestOrg;
let b: TestOrg;
let cookieA: string;
let cookieB: string;

beforeAll(async () => {
  gw = await startGateway({ DOCUMENT_MAX_BYTES: "200000" });
  a = await createTestOrg(gw.db, "mappings-a");
  b = await createTestOrg(gw.db, "mappings-b");
  cookieA = await login(gw.app, a.member.email, a.member.password);
  cookieB = await login(gw.app, b.member.email, b.member.password);
});
afterAll(() => gw.close());

const send = (
  url: string,
  file: string,
  filename: string,
  fields: Record<string, string> = {},
  cookie = cookieA,
) => {
  const body = documentUpload(file, filename, fields);
  return gw.app.inject({
    method: "POST",
    url,
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
};
const columns = (file: string, fields: Record<string, string> = {}, cookie = cookieA) =>
  send("/api/imports/columns", file, "stock.csv", fields, cookie);
const get = (url: string, cookie = cookieA) =>
  gw.app.inject({ method: "GET", url, headers: { cookie } });

async function settle(id: string): Promise<Import> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const body = (await get(`/api/imports/${id}`)).json<Import>();
    if (body.status !== "previewing") return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still previewing`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("an unknown-header CSV: the columns preview shows each column with samples, and that it needs a mapping", async () => {
  const res = await columns(STOCK_LIST);
  expect(res.statusCode).toBe(200);
  const body = res.json<ColumnsPreview>();
  expect(body).toMatchObject({
    format: "csv",
    layout: "generic",
    mappable: true,
    template: null,
    needsMapping: true,
    preview: [],
  });
  // Only "Farbe" (colour) is recognised, as a variant option; no column is the title.
  expect(body.columns.map((c) => [c.column, c.field, c.recognised])).toEqual(
    HEADERS.map((h) => (h === "Farbe" ? [h, "option", true] : [h, "attribute", false])),
  );
  expect(body.columns[0]!.samples).toEqual(["Wollmütze", "Schal", "Handschuhe"]);
  expect(body.columns[2]!.samples).toEqual(["19,90", "24,50", "9,00"]);
});

test("with a mapping, the preview reads titles, prices with currency, quantities, images and attributes; nothing is stored", async () => {
  const res = await columns(STOCK_LIST, { mapping: JSON.stringify(MAPPING) });
  expect(res.statusCode).toBe(200);
  const body = res.json<ColumnsPreview>();
  expect(body.needsMapping).toBe(false);
  expect(body.columns.map((c) => [c.column, c.field, c.name])).toEqual([
    ["Artikel", "title", null],
    ["Nummer", "sku", null],
    ["VK", "price", null],
    ["Waehrungscode", "currency", null],
    ["Lager", "quantity", null],
    ["Foto", "images", null],
    ["Farbe", "attribute", "Color"],
  ]);
  expect(body.preview).toEqual([
    {
      row: 2,
      ok: true,
      product: {
        title: "Wollmütze",
        sku: "MAP-WM-1",
        price: { amount: "19.90", currency: "EUR" },
        currency: "EUR",
        quantity: 12,
        brand: null,
        gtin: null,
        images: ["https://shop.example/m1.jpg"],
        variants: [],
        attributes: { Color: "Rot" },
      },
    },
    expect.objectContaining({ row: 3, ok: true }),
    expect.objectContaining({ row: 4, ok: true }),
  ]);
  expect(body.preview.map((r) => r.ok && [r.product.price, r.product.quantity])).toEqual([
    [{ amount: "19.90", currency: "EUR" }, 12],
    [{ amount: "24.50", currency: "EUR" }, 3],
    [{ amount: "9.00", currency: "EUR" }, 0],
  ]);
  expect(await gw.db.product.count({ where: { orgId: a.org.id } })).toBe(0);
});

test("a mapping's parent and option columns: the preview and the stored product carry the variants", async () => {
  const sheet =
    "Artikel;Nummer;Hauptartikel;VK;Waehrungscode;Lager;Farbe\n" +
    "Strickjacke;MAP-SJ;;59,00;EUR;;\n" +
    "Strickjacke Rot;MAP-SJ-R;MAP-SJ;59,00;EUR;4;Rot\n" +
    "Strickjacke Blau;MAP-SJ-B;MAP-SJ;61,00;EUR;6;Blau\n";
  const mapping = JSON.stringify({
    columns: [
      { column: "Artikel", field: "title" },
      { column: "Nummer", field: "sku" },
      { column: "Hauptartikel", field: "parent" },
      { column: "VK", field: "price" },
      { column: "Waehrungscode", field: "currency" },
      { column: "Lager", field: "quantity" },
      { column: "Farbe", field: "option", name: "Color" },
    ],
  });
  const preview = (await columns(sheet, { mapping })).json<ColumnsPreview>();
  expect(preview.preview).toHaveLength(1);
  const first = preview.preview[0]!;
  expect(first.ok && first.product.variants).toEqual([
    {
      sku: "MAP-SJ-R",
      price: { amount: "59.00", currency: "EUR" },
      options: { Color: "Rot" },
      quantity: 4,
    },
    {
      sku: "MAP-SJ-B",
      price: { amount: "61.00", currency: "EUR" },
      options: { Color: "Blau" },
      quantity: 6,
    },
  ]);
  expect(first.ok && [first.product.title, first.product.quantity]).toEqual(["Strickjacke", 10]);

  const res = await send("/api/import/document", sheet, "jacken.csv", { mapping, persist: "true" });
  expect(res.statusCode).toBe(200);
  const stored = await gw.db.product.findFirstOrThrow({
    where: { orgId: a.org.id, sku: "MAP-SJ" },
  });
  expect(stored.title).toBe("Strickjacke");
  expect(stored.variants).toEqual([
    expect.objectContaining({ sku: "MAP-SJ-R", options: { Color: "Rot" }, quantity: 4 }),
    expect.objectContaining({ sku: "MAP-SJ-B", options: { Color: "Blau" }, quantity: 6 }),
  ]);
});

test("a big file's first part is enough: a last line cut short is dropped", async () => {
  const cut = STOCK_LIST + "Mantel;MAP-MA-4;1";
  const res = await columns(cut, { mapping: JSON.stringify(MAPPING) });
  expect(res.statusCode).toBe(200);
  expect(res.json<ColumnsPreview>().preview.map((r) => r.row)).toEqual([2, 3, 4]);
});

test("JSON is not mappable: no columns, its first items previewed", async () => {
  const json = JSON.stringify([{ title: "Hat", price: "5.00", currency: "EUR" }]);
  const res = await send("/api/imports/columns", json, "p.json");
  expect(res.statusCode).toBe(200);
  expect(res.json<ColumnsPreview>()).toMatchObject({
    format: "json",
    mappable: false,
    columns: [],
    needsMapping: false,
    preview: [{ row: 1, ok: true, product: { title: "Hat" } }],
  });
});

test.each([
  ["malformed JSON", "{columns:", 400, 'multipart part "mapping": it is not valid JSON'],
  [
    "more than 32 KB",
    JSON.stringify({
      columns: Array.from({ length: 400 }, (_, i) => ({
        column: `Spalte ${i} ${"x".repeat(60)}`,
        field: "ignore",
      })),
    }),
    400,
    'multipart part "mapping": it is longer than 32 KB',
  ],
  [
    "a field that does not exist",
    JSON.stringify({ columns: [{ column: "Artikel", field: "colour" }] }),
    400,
    'multipart part "mapping": columns[0].field "colour" is not a field',
  ],
  [
    "a column the file does not have",
    JSON.stringify({ columns: [{ column: "Titel", field: "title" }] }),
    422,
    'the mapping names column "Titel", which the file\'s header row does not have',
  ],
  [
    "two columns for one price",
    JSON.stringify({
      columns: [
        { column: "Artikel", field: "title" },
        { column: "VK", field: "price" },
        { column: "Lager", field: "price" },
      ],
    }),
    422,
    'the mapping reads both column "VK" and column "Lager" as price',
  ],
])(
  "a mapping with %s is refused on the preview and the import",
  async (_, mapping, status, message) => {
    const preview = await columns(STOCK_LIST, { mapping });
    expect({ status: preview.statusCode, error: errorOf(preview) }).toEqual({
      status,
      error: stringContaining(message),
    });
    const started = await send("/api/imports", STOCK_LIST, "stock.csv", { mapping });
    expect({ status: started.statusCode, error: errorOf(started) }).toEqual({
      status,
      error: stringContaining(message),
    });
  },
);

test("a mapping for a JSON upload is a 422", async () => {
  const res = await send("/api/imports", '[{"title":"Hat"}]', "p.json", {
    mapping: JSON.stringify({ columns: [{ column: "title", field: "title" }] }),
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toContain("mappings apply to CSV, TSV and XLSX");
});

test("a saved template reads a second file with the same headers (other order, other case); automatic skips it; other orgs never see it", async () => {
  const saved = await gw.app.inject({
    method: "POST",
    url: "/api/import-mappings",
    headers: { cookie: cookieA },
    payload: { name: "Lagerliste", headers: HEADERS, mapping: MAPPING },
  });
  expect(saved.statusCode).toBe(201);
  const template = saved.json<ImportMapping>();
  expect(template).toMatchObject({ name: "Lagerliste", headers: HEADERS, lastUsedAt: null });

  // The same headers, reordered and in other case, with other products.
  const second =
    "LAGER;artikel;Foto;VK;Nummer;Farbe;waehrungscode\n" +
    "5;Pullover;https://shop.example/p5.jpg;49,00;MAP-PU-5;Grün;EUR\n" +
    "2;Jacke;https://shop.example/j6.jpg;89,90;MAP-JA-6;Schwarz;EUR\n";
  const preview = (await columns(second)).json<ColumnsPreview>();
  expect(preview.template).toEqual({ id: template.id, name: "Lagerliste" });
  expect(preview.needsMapping).toBe(false);
  expect(preview.preview.map((r) => r.ok && r.product.title)).toEqual(["Pullover", "Jacke"]);

  const started = await send("/api/imports", second, "second.csv");
  expect(started.statusCode).toBe(202);
  expect(started.json<Import>().mapping).toEqual({
    source: "template",
    templateId: template.id,
    templateName: "Lagerliste",
  });
  const ready = await settle(started.json<Import>().id);
  expect(ready).toMatchObject({ status: "ready", counts: { create: 2, error: 0 } });
  const stored = await gw.app.inject({
    method: "POST",
    url: `/api/imports/${ready.id}/store`,
    headers: { cookie: cookieA },
  });
  expect(stored.statusCode).toBe(202);
  const done = await (async () => {
    for (let i = 0; i < 500; i++) {
      const view = (await get(`/api/imports/${ready.id}`)).json<Import>();
      if (view.status !== "storing") return view;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("still storing");
  })();
  expect(done).toMatchObject({ status: "stored", result: { created: 2 } });
  const products = await gw.db.product.findMany({
    where: { orgId: a.org.id, sku: { in: ["MAP-PU-5", "MAP-JA-6"] } },
    orderBy: { sku: "asc" },
  });
  expect(
    products.map((p) => [
      p.title,
      p.sku,
      p.priceAmount?.toFixed(2),
      p.priceCurrency,
      p.quantity,
      p.images,
      p.attributes,
    ]),
  ).toEqual([
    ["Jacke", "MAP-JA-6", "89.90", "EUR", 2, ["https://shop.example/j6.jpg"], { Color: "Schwarz" }],
    ["Pullover", "MAP-PU-5", "49.00", "EUR", 5, ["https://shop.example/p5.jpg"], { Color: "Grün" }],
  ]);
  const rows = (await get(`/api/imports/${ready.id}/rows`)).json<List<ImportRow>>();
  expect(rows.items).toHaveLength(2);

  const list = (await get("/api/import-mappings")).json<ImportMappingList>();
  expect(list.items).toHaveLength(1);
  expect(list.items[0]!.lastUsedAt).not.toBeNull();

  // "automatic" skips the template: the file has no title column then.
  const automatic = (await columns(second, { mapping: "automatic" })).json<ColumnsPreview>();
  expect(automatic).toMatchObject({ template: null, needsMapping: true });
  const refused = await send("/api/imports", second, "second.csv", { mapping: "automatic" });
  expect(refused.statusCode).toBe(422);
  expect(errorOf(refused)).toContain("no Title or Name column");

  // A mapping sent with the upload wins, and the import says it was given.
  const given = await send("/api/imports", second, "second.csv", {
    mapping: JSON.stringify({ columns: [{ column: "Nummer", field: "title" }] }),
  });
  expect(given.json<Import>().mapping).toEqual({
    source: "given",
    templateId: null,
    templateName: null,
  });
  await settle(given.json<Import>().id);

  // Another organisation sees none of it, and cannot delete it.
  expect((await get("/api/import-mappings", cookieB)).json<ImportMappingList>().items).toEqual([]);
  expect((await columns(second, {}, cookieB)).json<ColumnsPreview>().template).toBeNull();
  const foreign = await gw.app.inject({
    method: "DELETE",
    url: `/api/import-mappings/${template.id}`,
    headers: { cookie: cookieB },
  });
  expect(foreign.statusCode).toBe(404);

  // Saving the same header set again replaces it (200); deleting it is 204, then 404.
  const again = await gw.app.inject({
    method: "POST",
    url: "/api/import-mappings",
    headers: { cookie: cookieA },
    payload: { name: "Lagerliste 2", headers: [...HEADERS].reverse(), mapping: MAPPING },
  });
  expect(again.statusCode).toBe(200);
  expect(again.json<ImportMapping>()).toMatchObject({ id: template.id, name: "Lagerliste 2" });
  const del = () =>
    gw.app.inject({
      method: "DELETE",
      url: `/api/import-mappings/${template.id}`,
      headers: { cookie: cookieA },
    });
  expect((await del()).statusCode).toBe(204);
  expect((await del()).statusCode).toBe(404);
});

test("a template whose mapping names a column not in its headers, or a field not known, is a 422", async () => {
  const post = (payload: object) =>
    gw.app.inject({
      method: "POST",
      url: "/api/import-mappings",
      headers: { cookie: cookieA },
      payload,
    });
  const missing = await post({
    name: "Broken",
    headers: ["Artikel"],
    mapping: { columns: [{ column: "Preis", field: "price" }] },
  });
  expect(missing.statusCode).toBe(422);
  expect(errorOf(missing)).toContain('column "Preis" is not one of the template\'s headers');
  const unknown = await post({
    name: "Broken",
    headers: ["Artikel"],
    mapping: { columns: [{ column: "Artikel", field: "colour" }] },
  });
  expect(unknown.statusCode).toBe(422);
  expect(errorOf(unknown)).toContain("field");
});

test("the one-shot document import takes a mapping too", async () => {
  const res = await send("/api/import/document", STOCK_LIST, "stock.csv", {
    mapping: JSON.stringify(MAPPING),
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ items: { ok: boolean }[] }>();
  expect(body.items.map((i) => i.ok)).toEqual([true, true, true]);
});

test("OpenAPI lists the column preview and the template operations under /api and /api/v1", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const routes = [
    ["post", "/imports/columns", ["200", "400", "401", "413", "415", "422"]],
    ["get", "/import-mappings", ["200", "401"]],
    ["post", "/import-mappings", ["200", "201", "401", "422"]],
    ["delete", "/import-mappings/{id}", ["204", "401", "404"]],
  ] as const;
  for (const prefix of ["/api", "/api/v1"]) {
    for (const [method, path, statuses] of routes) {
      const op = doc.paths[`${prefix}${path}`]?.[method];
      expect({ route: `${method} ${prefix}${path}`, summary: typeof op?.summary }).toEqual({
        route: `${method} ${prefix}${path}`,
        summary: "string",
      });
      expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining([...statuses]));
    }
  }
  const form =
    doc.paths["/api/imports/columns"]!.post!.requestBody!.content["multipart/form-data"]!.schema;
  expect(Object.keys(form.properties!)).toEqual(["encoding", "currency", "mapping", "file"]);
});
