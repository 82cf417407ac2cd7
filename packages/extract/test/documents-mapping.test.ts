import { Readable } from "node:stream";
import { xlsxWorkbook } from "@catalog/testing/xlsx-workbook";
import {
  parseDocument,
  readColumns,
  type ColumnMapping,
  type DocumentMeta,
  type DocumentRow,
} from "../src/documents/index.js";
import { objectContaining, stringContaining } from "@catalog/test-support/matchers";

// A merchant's own German stock list: no header the service recognises ("Artikel" is not
// "Artikelname", "VK" is not "Preis").
const STOCK_LIST =
  "Artikel;Nummer;VK;Waehrungscode;Lager;Foto;Farbe\n" +
  "Wollmütze;WM-1;19,90;EUR;12;https://shop.example/m1.jpg;Rot\n" +
  "Schal;SC-2;24,50;EUR;3;https://shop.example/s2.jpg;Blau\n";

const STOCK_MAPPING: ColumnMapping = {
  columns: [
    { column: "Artikel", field: "title" },
    { column: "Nummer", field: "sku" },
    { column: "VK", field: "price" },
    { column: "waehrungscode", field: "currency" },
    { column: " LAGER ", field: "quantity" },
    { column: "Foto", field: "images" },
    { column: "Farbe", field: "attribute", name: "Color" },
  ],
};

const input = (content: Buffer | string) =>
  Readable.from([typeof content === "string" ? Buffer.from(content) : content]);

async function collect(content: Buffer | string, meta: Partial<DocumentMeta> = {}) {
  const rows: DocumentRow[] = [];
  for await (const row of parseDocument(input(content), { maxBytes: 10_000_000, ...meta }))
    rows.push(row);
  return rows;
}

const products = (rows: DocumentRow[]) => rows.flatMap((r) => (r.ok ? [r.product] : []));

describe("a column mapping sent with the upload", () => {
  test("without one, a file of unknown headers is refused for its missing title column", async () => {
    await expect(collect(STOCK_LIST)).rejects.toMatchObject({
      status: 422,
      message: stringContaining("no Title or Name column"),
    });
  });

  test("the columns it names are read as it says (headers compared trimmed, in any case)", async () => {
    const rows = await collect(STOCK_LIST, { mapping: STOCK_MAPPING });
    expect(products(rows)).toEqual([
      objectContaining({
        title: "Wollmütze",
        sku: "WM-1",
        price: { amount: "19.90", currency: "EUR" },
        quantity: 12,
        images: ["https://shop.example/m1.jpg"],
        attributes: { Color: "Rot" },
      }),
      objectContaining({
        title: "Schal",
        sku: "SC-2",
        price: { amount: "24.50", currency: "EUR" },
        quantity: 3,
        images: ["https://shop.example/s2.jpg"],
        attributes: { Color: "Blau" },
      }),
    ]);
    expect(rows[0]!.ok && rows[0]!.product.provenance.title).toEqual({
      source: "document",
      method: "column Artikel",
    });
  });

  test("columns it does not name keep their automatic reading; a mapped field wins over a recognised one", async () => {
    const csv = "Bezeichnung,Name,Price,Brand\nKurzname,Langer Name,5.00,Acme\n";
    const rows = await collect(csv, {
      currency: "EUR",
      mapping: { columns: [{ column: "Bezeichnung", field: "title" }] },
    });
    expect(products(rows)).toEqual([
      objectContaining({
        title: "Kurzname",
        brand: "Acme",
        price: { amount: "5.00", currency: "EUR" },
      }),
    ]);
  });

  test("a Shopify export with a mapping is read by the generic reading, one product per row", async () => {
    const csv =
      "Handle,Title,Variant SKU,Variant Price\n" + "hat,Wool hat,H-1,10.00\n" + "hat,,H-2,11.00\n";
    const rows = await collect(csv, {
      currency: "USD",
      mapping: { columns: [{ column: "Variant SKU", field: "title" }] },
    });
    expect(products(rows).map((p) => [p.title, p.price])).toEqual([
      ["H-1", { amount: "10.00", currency: "USD" }],
      ["H-2", { amount: "11.00", currency: "USD" }],
    ]);
  });

  test("an XLSX sheet is read with the mapping too", async () => {
    const book = xlsxWorkbook([
      {
        name: "Lager",
        rows: [
          ["Artikel", "VK", "Bestand jetzt"],
          ["Wollmütze", 19.9, 7],
        ],
      },
    ]);
    const rows = await collect(book, {
      currency: "EUR",
      mapping: {
        columns: [
          { column: "Artikel", field: "title" },
          { column: "VK", field: "price" },
          { column: "Bestand jetzt", field: "quantity" },
        ],
      },
    });
    expect(products(rows)).toEqual([
      objectContaining({
        title: "Wollmütze",
        price: { amount: "19.90", currency: "EUR" },
        quantity: 7,
      }),
    ]);
  });

  test.each([
    [
      "a column the file does not have",
      { columns: [{ column: "Titel", field: "title" }] },
      'the mapping names column "Titel", which the file\'s header row does not have',
    ],
    [
      "two columns mapped to one single-value field",
      {
        columns: [
          { column: "Artikel", field: "title" },
          { column: "VK", field: "price" },
          { column: "Lager", field: "price" },
        ],
      },
      'the mapping reads both column "VK" and column "Lager" as price',
    ],
    [
      "no title column at all",
      { columns: [{ column: "VK", field: "price" }] },
      'no column is read as the title (the columns are "Artikel", "Nummer"',
    ],
  ] as [string, ColumnMapping, string][])(
    "%s is a 422 naming the column",
    async (_, mapping, message) => {
      await expect(collect(STOCK_LIST, { mapping })).rejects.toMatchObject({
        status: 422,
        message: stringContaining(message),
      });
    },
  );

  test("two columns as options or images are fine", async () => {
    const csv = "Artikel,Bild 1,Bild 2\nMütze,https://a.example/1.jpg,https://a.example/2.jpg\n";
    const rows = await collect(csv, {
      mapping: {
        columns: [
          { column: "Artikel", field: "title" },
          { column: "Bild 1", field: "images" },
          { column: "Bild 2", field: "images" },
        ],
      },
    });
    expect(products(rows)[0]!.images).toEqual([
      "https://a.example/1.jpg",
      "https://a.example/2.jpg",
    ]);
  });

  test.each([
    ["JSON", '[{"title":"Hat","price":"5.00","currency":"EUR"}]', "products.json"],
    ["NDJSON", '{"title":"Hat","price":"5.00","currency":"EUR"}\n', "products.ndjson"],
  ])(
    "a mapping for %s is a 422 saying mappings apply to CSV, TSV and XLSX",
    async (format, text, filename) => {
      await expect(
        collect(text, { filename, mapping: { columns: [{ column: "title", field: "title" }] } }),
      ).rejects.toMatchObject({
        status: 422,
        message: stringContaining(`with a ${format} document; mappings apply to CSV, TSV and XLSX`),
      });
    },
  );
});

test("a mapping's parent and option columns make variant rows the variants of their parent", async () => {
  const sheet =
    "Artikel;Nummer;Hauptartikel;VK;Waehrungscode;Lager;Farbe\n" +
    "Wollmütze;WM;;19,90;EUR;;\n" +
    "Wollmütze Rot;WM-R;WM;19,90;EUR;4;Rot\n" +
    "Wollmütze Blau;WM-B;WM;21,00;EUR;6;Blau\n" +
    "Schal;SC;;24,50;EUR;3;\n";
  const rows = await collect(sheet, {
    mapping: {
      columns: [
        { column: "Artikel", field: "title" },
        { column: "Nummer", field: "sku" },
        { column: "Hauptartikel", field: "parent" },
        { column: "VK", field: "price" },
        { column: "Waehrungscode", field: "currency" },
        { column: "Lager", field: "quantity" },
        { column: "Farbe", field: "option", name: "Color" },
      ],
    },
  });
  const found = products(rows);
  expect(found.map((p) => [p.title, p.sku, p.variants.length])).toEqual([
    ["Wollmütze", "WM", 2],
    ["Schal", "SC", 0],
  ]);
  expect(found[0]!.variants.map((v) => [v.sku, v.price, v.options, v.quantity])).toEqual([
    ["WM-R", { amount: "19.90", currency: "EUR" }, { Color: "Rot" }, 4],
    ["WM-B", { amount: "21.00", currency: "EUR" }, { Color: "Blau" }, 6],
  ]);
  expect(found[0]!.quantity).toBe(10);
});

describe("readColumns", () => {
  const meta: DocumentMeta = { maxBytes: 10_000_000 };

  test("an unknown-header file: its headers, first rows, automatic reading and needsMapping", async () => {
    const columns = await readColumns(input(STOCK_LIST), meta);
    expect(columns).toMatchObject({
      format: "csv",
      layout: "generic",
      headers: ["Artikel", "Nummer", "VK", "Waehrungscode", "Lager", "Foto", "Farbe"],
      needsMapping: true,
      preview: [],
    });
    expect(columns.rows.map((r) => [r.row, r.cells[0]])).toEqual([
      [2, "Wollmütze"],
      [3, "Schal"],
    ]);
    // "Farbe" (colour) reads as a variant option; nothing reads as the title.
    expect(columns.assignments.map((a) => a.field)).toEqual([
      ...Array<string>(6).fill("attribute"),
      "option",
    ]);
    expect(columns.recognised).toEqual([false, false, false, false, false, false, true]);
  });

  test("with a mapping: the assignments it gives and the products the rows read as", async () => {
    const columns = await readColumns(input(STOCK_LIST), { ...meta, mapping: STOCK_MAPPING });
    expect(columns.needsMapping).toBe(false);
    expect(columns.assignments.map((a) => [a.header, a.field, a.name])).toEqual([
      ["Artikel", "title", null],
      ["Nummer", "sku", null],
      ["VK", "price", null],
      ["Waehrungscode", "currency", null],
      ["Lager", "quantity", null],
      ["Foto", "images", null],
      ["Farbe", "attribute", "Color"],
    ]);
    expect(columns.preview).toEqual([
      { row: 2, ok: true, product: objectContaining({ title: "Wollmütze", quantity: 12 }) },
      { row: 3, ok: true, product: objectContaining({ title: "Schal", quantity: 3 }) },
    ]);
  });

  test("reads only the sample rows, and drops a last line cut short", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `Item ${i + 1},${i + 1}.00`);
    const full = `Title,Price\n${lines.join("\n")}\n`;
    const sampled = await readColumns(input(full), { ...meta, currency: "EUR" }, { sampleRows: 5 });
    expect(sampled.rows).toHaveLength(5);
    expect(sampled.preview).toHaveLength(5);

    const cut = 'Title,Price,Description\nHat,5.00,"Warm\nScarf,7.00,"Long and';
    const partial = await readColumns(input(cut), { ...meta, currency: "EUR" });
    expect(partial.rows.map((r) => r.row)).toEqual([2]);
    const short = await readColumns(input("Title,Price,Brand\nHat,5.00,Acme\nScarf,7."), {
      ...meta,
      currency: "EUR",
    });
    expect(short.preview.map((r) => r.ok && r.product.title)).toEqual(["Hat"]);
  });

  test("a Shopify export shows its layout and previews grouped products", async () => {
    const csv =
      "Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price\n" +
      "hat,Wool hat,Color,Red,H-1,10.00\n" +
      "hat,,,Blue,H-2,11.00\n";
    const columns = await readColumns(input(csv), { ...meta, currency: "USD" });
    expect(columns.layout).toBe("shopify");
    expect(columns.needsMapping).toBe(false);
    expect(columns.preview).toHaveLength(1);
    expect(columns.preview[0]!.ok && columns.preview[0]!.product.variants).toHaveLength(2);
  });

  test("JSON has no columns; its first items are previewed", async () => {
    const json = JSON.stringify(
      Array.from({ length: 30 }, (_, i) => ({ title: `Hat ${i}`, price: "5.00", currency: "EUR" })),
    );
    const columns = await readColumns(input(json), { ...meta, filename: "p.json" });
    expect(columns).toMatchObject({ format: "json", headers: [], assignments: [] });
    expect(columns.preview).toHaveLength(20);
  });
});
