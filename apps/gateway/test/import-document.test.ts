import { readFileSync } from "node:fs";
import iconv from "iconv-lite";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import { xlsxWorkbook } from "@catalog/testing/xlsx-workbook";
import { sharedInput, sharedPath } from "@catalog/test-support/shared-inputs";
import type { DocumentImportResult } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { failed, imported, isImported } from "./import-items.js";
import { objectContaining, stringMatching } from "@catalog/test-support/matchers";
import { documentUpload, multipart } from "./multipart.js";

// Shopify's own export template, from the shared corpus (../shared/corpus); with CI set, its
// absence fails the run.
const shopifyTemplate = sharedInput({
  what: "Shopify's product CSV template",
  path: sharedPath("corpus/documents/shopify/product_template_2023plus.csv"),
  tests: "the Shopify export test",
});

let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway({ DOCUMENT_MAX_BYTES: "200000" });
  t = await createTestOrg(gw.db, "documents");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const upload = (
  file: string | Buffer,
  filename: string,
  fields: Record<string, string> = {},
  type = "text/csv",
) => {
  const body = documentUpload(file, filename, fields, type);
  return gw.app.inject({
    method: "POST",
    url: "/api/import/document",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
};
const count = () => gw.db.product.count({ where: { orgId: t.org.id } });

const CSV = `Title,SKU,Price,Currency,Brand,Image
Linen Shirt,DOC-SHIRT,49.00,EUR,Acme,https://img.test/shirt.jpg
,DOC-NOTITLE,10.00,EUR,Acme,
"Wool ""Cozy"" Scarf",DOC-SCARF,"19.90",EUR,Acme,https://img.test/scarf.jpg
`;

test("a preview answers an outcome per row, with row numbers, and stores nothing", async () => {
  const res = await upload(CSV, "products.csv");
  expect(res.statusCode).toBe(200);
  const body = res.json<DocumentImportResult>();
  expect(body.persisted).toBe(false);
  expect(body.items).toHaveLength(3);
  expect(body.items[0]).toMatchObject({
    row: 2,
    ok: true,
    action: "preview",
    wouldBe: "created",
    product: {
      title: "Linen Shirt",
      sku: "DOC-SHIRT",
      price: { amount: "49.00", currency: "EUR" },
    },
  });
  expect(body.items[1]).toMatchObject({ row: 3, ok: false });
  expect(failed(body.items[1]).error).toMatch(/title/i);
  expect(body.items[2]).toMatchObject({
    row: 4,
    ok: true,
    product: { title: 'Wool "Cozy" Scarf' },
  });
  expect(body.summary).toEqual({ requested: 3, succeeded: 2, failed: 1, created: 2, updated: 0 });
  expect(await count()).toBe(0);
});

test("persist stores the rows; uploading again updates instead of duplicating", async () => {
  const first = (
    await upload(CSV, "products.csv", { persist: "true" })
  ).json<DocumentImportResult>();
  expect(first.summary).toMatchObject({ succeeded: 2, created: 2 });
  expect(await count()).toBe(2);
  const second = (
    await upload(CSV.replace("49.00", "52.00"), "products.csv", { persist: "true" })
  ).json<DocumentImportResult>();
  expect(second.summary).toMatchObject({ created: 0, updated: 2 });
  expect(second.items[0]).toMatchObject({
    action: "updated",
    changes: {
      price: {
        from: { amount: "49.00", currency: "EUR" },
        to: { amount: "52.00", currency: "EUR" },
      },
    },
  });
  expect(await count()).toBe(2);
});

(shopifyTemplate ? test : test.skip)(
  "Shopify's own product CSV groups rows by Handle into products with variants",
  async () => {
    const res = await upload(readFileSync(shopifyTemplate!), "shopify.csv", { currency: "USD" });
    expect(res.statusCode).toBe(200);
    const products = res.json<DocumentImportResult>().items.filter(isImported);
    expect(products.length).toBeGreaterThan(0);
    expect(products.some((p) => p.product.variants.length > 1)).toBe(true);
    expect(products[0]!.product.price?.currency ?? "USD").toBe("USD");
  },
);

test.each([
  ["an empty file", "", "empty.csv", "text/csv", 422],
  ["a header without rows", "Title,SKU,Price\n", "header.csv", "text/csv", 422],
  ["a PNG", Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), "photo.png", "image/png", 415],
  [
    "a file over the limit",
    "Title,SKU\n" + "A product,SKU\n".repeat(20_000),
    "big.csv",
    "text/csv",
    413,
  ],
  ["broken JSON", '[{"title": "A"}, {"title": ', "broken.json", "application/json", 422],
])(
  "%s is refused with { error } and nothing stored",
  async (_name, file, filename, type, status) => {
    const before = await count();
    const res = await upload(file, filename, { persist: "true" }, type);
    expect(res.statusCode).toBe(status);
    errorOf(res);
    expect(await count()).toBe(before);
  },
);

test("descriptions are stored cleaned (the parser thread cleans them): the answer, the preview and the catalog agree", async () => {
  const html = `<p onclick="steal()">Soft <b>linen</b></p><script>alert(1)</script><img src="https://img.test/x.jpg" onerror="x()">`;
  const csv =
    "Title,SKU,Price,Currency,Description\n" +
    `Clean Shirt,DOC-CLEAN-1,10.00,EUR,"${html.replaceAll('"', '""')}"\n` +
    `Plain Shirt,DOC-CLEAN-2,11.00,EUR,"Two lines\nof <3 text"\n`;
  const descriptions = (body: DocumentImportResult) =>
    body.items.map((item) => imported(item).product.description);
  const expected = ["<p>Soft <b>linen</b></p>", "<p>Two lines<br />of &lt;3 text</p>"];

  expect(descriptions((await upload(csv, "clean.csv")).json<DocumentImportResult>())).toEqual(
    expected,
  );
  const stored = (await upload(csv, "clean.csv", { persist: "true" })).json<DocumentImportResult>();
  expect(descriptions(stored)).toEqual(expected);
  const rows = await gw.db.product.findMany({
    where: { orgId: t.org.id, sku: { in: ["DOC-CLEAN-1", "DOC-CLEAN-2"] } },
    orderBy: { sku: "asc" },
    select: { description: true },
  });
  expect(rows.map((r) => r.description)).toEqual(expected);
});

test("a JSON body instead of multipart is 415, and a missing file part is 422", async () => {
  const json = await gw.app.inject({
    method: "POST",
    url: "/api/import/document",
    headers: { cookie },
    payload: { file: "x" },
  });
  expect(json.statusCode).toBe(415);
  const noFile = multipart([{ name: "persist", value: "true" }]);
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/import/document",
    headers: { cookie, ...noFile.headers },
    payload: noFile.payload,
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/"file"/);
});

test("a bad persist or currency part is 422; a retired currency (HRK, BGN) is refused by name", async () => {
  expect((await upload(CSV, "p.csv", { persist: "maybe" })).statusCode).toBe(422);
  expect((await upload(CSV, "p.csv", { currency: "euros" })).statusCode).toBe(422);
  for (const code of ["HRK", "bgn"]) {
    const res = await upload(CSV, "p.csv", { currency: code });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(
      new RegExp(`${code.toUpperCase()} is no longer a current currency`),
    );
  }
});

describe("encodings", () => {
  const RUSSIAN =
    "Title;SKU;Price;Brand;Description\r\n" +
    "Чайник электрический;ENC-RU-1;1990;Витязь;Стеклянный корпус, синяя подсветка\r\n" +
    "Утюг паровой;ENC-RU-2;2490;Скарлетт;Керамическая подошва, защита от накипи\r\n" +
    "Пылесос беспроводной;ENC-RU-3;8990;Кёрхер;Мощный и тихий, работает до часа\r\n" +
    "Мясорубка;ENC-RU-4;3590;Редмонд;Три насадки в комплекте\r\n";
  const titles = (body: DocumentImportResult) =>
    body.items.flatMap((i) => (i.ok ? [i.product.title] : []));

  test("a windows-1251 CSV is read in windows-1251, and the answer says so", async () => {
    const res = await upload(iconv.encode(RUSSIAN, "windows-1251"), "ru.csv", { currency: "RUB" });
    expect(res.statusCode).toBe(200);
    const body = res.json<DocumentImportResult>();
    expect(body.encoding).toEqual({ name: "windows-1251", source: "detected" });
    expect(titles(body)).toEqual([
      "Чайник электрический",
      "Утюг паровой",
      "Пылесос беспроводной",
      "Мясорубка",
    ]);
    expect(imported(body.items[2]).product).toMatchObject({
      brand: "Кёрхер",
      price: { amount: "8990.00", currency: "RUB" },
    });
  });

  test("the encoding part names it instead (in any of its usual names); the answer says it was named", async () => {
    const bytes = iconv.encode(RUSSIAN, "koi8-r");
    const body = (
      await upload(bytes, "ru.csv", { currency: "RUB", encoding: "KOI8-R" })
    ).json<DocumentImportResult>();
    expect(body.encoding).toEqual({ name: "koi8-r", source: "named" });
    expect(titles(body)[0]).toBe("Чайник электрический");
    const cp = (
      await upload(iconv.encode(RUSSIAN, "windows-1251"), "ru.csv", { encoding: "cp1251" })
    ).json<DocumentImportResult>();
    expect(cp.encoding).toEqual({ name: "windows-1251", source: "named" });
  });

  test("an unknown encoding is 400 { error } naming it, and nothing is read or stored", async () => {
    const before = await count();
    const res = await upload(CSV, "p.csv", { persist: "true", encoding: "klingon-8" });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatch(
      /multipart part "encoding": "klingon-8" is not a known text encoding/,
    );
    expect(await count()).toBe(before);
  });

  test("a UTF-8 file with one invalid byte: its row is an error item, the other rows keep their accents", async () => {
    const text =
      "Title,SKU,Price,Currency\nCafé crème,ENC-FR-1,3.50,EUR\nCrème brûlée,ENC-FR-2,4.20,EUR\nPâté en croûte,ENC-FR-3,7.90,EUR\n";
    const good = Buffer.from(text);
    const at = good.indexOf(Buffer.from("û"));
    const bytes = Buffer.concat([good.subarray(0, at), Buffer.from([0xfb]), good.subarray(at + 2)]);
    const body = (await upload(bytes, "fr.csv")).json<DocumentImportResult>();
    expect(body.encoding).toEqual({ name: "utf-8", source: "detected" });
    expect(titles(body)).toEqual(["Café crème", "Pâté en croûte"]);
    expect(body.items[1]).toEqual({
      row: 3,
      ok: false,
      error: stringMatching(/^row 3: column "Title" holds bytes that are not valid utf-8 text/),
    });
    expect(body.summary).toMatchObject({ requested: 3, succeeded: 2, failed: 1 });
  });

  test("JSON and XLSX answer encoding null", async () => {
    const body = (
      await upload(
        JSON.stringify([{ title: "Café", sku: "ENC-JSON-1" }]),
        "p.json",
        { encoding: "windows-1251" },
        "application/json",
      )
    ).json<DocumentImportResult>();
    expect(body.encoding).toBeNull();
    expect(titles(body)).toEqual(["Café"]);
    const workbook = xlsxWorkbook([
      {
        name: "Products",
        rows: [
          ["Title", "SKU", "Price", "Currency", "Released"],
          ["Чайник", "ENC-XLSX-1", 19.9, "EUR", new Date(Date.UTC(2024, 0, 15))],
        ],
      },
    ]);
    const xlsx = (
      await upload(
        workbook,
        "p.xlsx",
        { encoding: "shift_jis" },
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      )
    ).json<DocumentImportResult>();
    expect(xlsx.encoding).toBeNull();
    expect(xlsx.items).toEqual([
      objectContaining({
        row: 2,
        ok: true,
        product: objectContaining({
          title: "Чайник",
          sku: "ENC-XLSX-1",
          price: { amount: "19.90", currency: "EUR" },
          attributes: { Released: "2024-01-15" },
        }),
      }),
    ]);
  });
});
