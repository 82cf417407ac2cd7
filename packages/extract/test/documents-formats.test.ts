import { Readable } from "node:stream";
import { xlsxWorkbook } from "@catalog/testing/xlsx-workbook";
import { describeDocument, parseDocument, type DocumentRow } from "../src/documents/index.js";
import { objectContaining, stringContaining, stringMatching } from "@catalog/test-support/matchers";

async function collect(
  content: Buffer | string,
  meta: { filename?: string; contentType?: string; currency?: string; maxBytes?: number } = {},
) {
  const rows: DocumentRow[] = [];
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  for await (const row of parseDocument(Readable.from([bytes]), { maxBytes: 10_000_000, ...meta }))
    rows.push(row);
  return rows;
}

function products(rows: DocumentRow[]) {
  return rows.flatMap((r) => (r.ok ? [r.product] : []));
}

describe("CSV encodings", () => {
  test("UTF-8 with BOM: the BOM is not part of the first header", async () => {
    const rows = await collect("\ufeffTitle,Price,Currency\nCafé crème,3.50,EUR\n");
    expect(rows).toEqual([
      {
        row: 2,
        ok: true,
        product: objectContaining({
          title: "Café crème",
          price: { amount: "3.50", currency: "EUR" },
        }),
      },
    ]);
    expect(rows[0]!.ok && rows[0]!.product.provenance.title).toEqual({
      source: "document",
      method: "column Title",
    });
  });

  test("windows-1252 (not valid UTF-8) is decoded with its own € and curly quotes", async () => {
    const text = "Name;Preis;Marke\n\u201cZebra\u201d Stuhl;\u20ac19,99;M\u00fcller\n";
    const cp1252 = Buffer.from(
      text.replace("\u201c", "\x93").replace("\u201d", "\x94").replace("\u20ac", "\x80"),
      "latin1",
    );
    const [p] = products(await collect(cp1252));
    expect(p).toMatchObject({
      title: "\u201cZebra\u201d Stuhl",
      brand: "M\u00fcller",
      price: { amount: "19.99", currency: "EUR" },
    });
  });

  test("windows-1252 that only shows after the first 64 KB is still decoded", async () => {
    const filler = Array.from({ length: 2000 }, (_, i) => `Plain item ${i},1.00\n`).join("");
    const bytes = Buffer.concat([
      Buffer.from(`Title,Price\n${filler}`),
      Buffer.from("Caf\xe9,2.00\n", "latin1"),
    ]);
    const rows = await collect(bytes, { currency: "USD" });
    expect(rows).toHaveLength(2001);
    expect(rows.at(-1)).toMatchObject({ ok: true, product: { title: "Café" } });
  });

  test.each([
    ["utf-16le", Buffer.from([0xff, 0xfe])],
    ["utf-16be", Buffer.from([0xfe, 0xff])],
  ] as const)("%s by BOM", async (encoding, bom) => {
    const le = Buffer.from("Title\tPrice\nÄpfel\t2.5\n", "utf16le");
    const body = encoding === "utf-16le" ? le : Buffer.from(le).swap16();
    const [p] = products(await collect(Buffer.concat([bom, body]), { currency: "EUR" }));
    expect(p).toMatchObject({ title: "Äpfel", price: { amount: "2.50", currency: "EUR" } });
  });
});

describe("CSV structure", () => {
  test("semicolon-delimited with decimal commas", async () => {
    const csv = "Product Name;SKU;Price;Currency;EAN\nLamp;L-1;12,50;EUR;4006381333931\n";
    expect(describeDocument(Buffer.from(csv), {}).delimiter).toBe(";");
    const [p] = products(await collect(csv));
    expect(p).toMatchObject({
      title: "Lamp",
      sku: "L-1",
      price: { amount: "12.50", currency: "EUR" },
      gtin: "4006381333931",
    });
  });

  test("TSV by name, with a pipe-separated image list", async () => {
    const tsv =
      "title\tsku\timages\nMug\tM-1\thttps://img.example/a.jpg|https://img.example/b.jpg | not-a-url\n";
    expect(describeDocument(Buffer.from(tsv), { filename: "x.tsv" }).delimiter).toBe("\t");
    const [p] = products(await collect(tsv, { filename: "x.tsv" }));
    expect(p!.images).toEqual(["https://img.example/a.jpg", "https://img.example/b.jpg"]);
  });

  test("quoted cells with delimiters, doubled quotes and newlines keep one row number per record", async () => {
    const csv =
      'Title,Description,Price\n"Desk, oak","Line one\r\nline ""two""",10\nChair,plain,5\n';
    const rows = await collect(csv, { currency: "USD" });
    expect(rows.map((r) => r.row)).toEqual([2, 3]);
    expect(products(rows)[0]).toMatchObject({
      title: "Desk, oak",
      description: 'Line one\r\nline "two"',
    });
  });

  test("a ragged row is reported and the rest of the file is read", async () => {
    const rows = await collect("Title,SKU,Price\nA,a,1\nB,b\nC,c,3,\n", { currency: "USD" });
    expect(rows).toEqual([
      objectContaining({ row: 2, ok: true }),
      {
        row: 3,
        ok: false,
        error: stringMatching(/^row 3: 2 cells where the header has 3 columns/),
      },
      objectContaining({ row: 4, ok: true }),
    ]);
  });

  test("row problems: no title, unreadable price, relative image URL dropped", async () => {
    const csv = "Name,Price,Image URL\n,5,\nWidget,call us,\nGadget,7,/img/g.jpg\n";
    const rows = await collect(csv, { currency: "USD" });
    expect(rows[0]).toEqual({
      row: 2,
      ok: false,
      error: "row 2: no title (expected a Title/Name column)",
    });
    expect(rows[1]).toEqual({
      row: 3,
      ok: false,
      error: 'row 3: cannot read the price "call us" (column Price)',
    });
    expect(rows[2]).toMatchObject({ row: 4, ok: true, product: { title: "Gadget", images: [] } });
  });

  test("without any currency the amount is kept aside, not guessed", async () => {
    const [p] = products(await collect("Title,Price\nBowl,9.5\n"));
    expect(p!.price).toBeNull();
    expect(p!.attributes.priceWithoutCurrency).toBe("9.50");
  });

  test("generic columns: brand/vendor, availability, mpn, source url, extra columns kept as attributes", async () => {
    const csv =
      "Product Title,Manufacturer,Stock,MPN,Product URL,Colour\nKettle,Brewco,0,BK-9,https://shop.example/kettle,Red\n";
    const [p] = products(await collect(csv));
    expect(p).toMatchObject({
      title: "Kettle",
      brand: "Brewco",
      availability: "OutOfStock",
      mpn: "BK-9",
      sourceUrl: "https://shop.example/kettle",
      attributes: { Colour: "Red" },
    });
    expect(p!.provenance.brand).toEqual({ source: "document", method: "column Manufacturer" });
  });
});

describe("Shopify grouping in a generated file", () => {
  test("header spacing and case do not matter; images follow Image Position; handle order is checked", async () => {
    const csv = [
      "handle,TITLE,variant_sku,Variant  Price,Option1 Name,Option1 Value,image src,Image Position",
      "cup,Cup,C-S,4,Size,S,https://i.example/2.jpg,2",
      "cup,,C-L,5,,L,https://i.example/1.jpg,1",
      "bowl,Bowl,B-1,6,Title,Default Title,,",
      "cup,,C-XL,6,,XL,,",
    ].join("\n");
    const rows = await collect(csv, { currency: "USD" });
    expect(rows[0]).toMatchObject({
      row: 2,
      ok: true,
      product: {
        title: "Cup",
        sku: "C-S",
        images: ["https://i.example/1.jpg", "https://i.example/2.jpg"],
      },
    });
    expect(rows[0]!.ok && rows[0]!.product.variants.map((v) => v.options)).toEqual([
      { Size: "S" },
      { Size: "L" },
    ]);
    expect(rows[1]).toMatchObject({ row: 4, ok: true });
    expect(rows[2]).toMatchObject({
      row: 5,
      ok: false,
      error: stringContaining("not together"),
    });
  });
});

describe("WooCommerce linking in a generated file", () => {
  test("variations before their parent, by SKU or id:, and an orphan reported at the end", async () => {
    const csv = [
      "ID,Type,SKU,Name,Parent,Regular price,Sale price,In stock?,Attribute 1 name,Attribute 1 value(s),Images",
      "11,variation,TEE-S,Tee - S,id:10,10,,1,Size,S,https://i.example/s.jpg",
      "12,simple,MUG,Mug,,5,4,0,,,",
      '10,variable,TEE,Tee,,,,1,Size,"S, M",https://i.example/tee.jpg',
      "13,variation,TEE-M,Tee - M,TEE,11,,1,Size,M,",
      "14,variation,CAP-S,Cap - S,CAP,3,,1,Size,S,",
    ].join("\r\n");
    const rows = await collect(csv, { currency: "EUR" });
    expect(rows.map((r) => [r.row, r.ok])).toEqual([
      [3, true],
      [4, true],
      [6, false],
    ]);
    expect(rows[0]).toMatchObject({
      product: {
        title: "Mug",
        price: { amount: "4.00", currency: "EUR" },
        availability: "OutOfStock",
      },
    });
    expect(rows[1]!.ok && rows[1]!.product.variants).toEqual([
      {
        sku: "TEE-S",
        title: "Tee - S",
        price: { amount: "10.00", currency: "EUR" },
        options: { Size: "S" },
        gtin: null,
        availability: "InStock",
        image: "https://i.example/s.jpg",
      },
      {
        sku: "TEE-M",
        title: "Tee - M",
        price: { amount: "11.00", currency: "EUR" },
        options: { Size: "M" },
        gtin: null,
        availability: "InStock",
        image: null,
      },
    ]);
    expect(rows[1]).toMatchObject({ product: { attributes: { options: { Size: ["S", "M"] } } } });
    expect(rows[2]).toMatchObject({
      error: stringContaining('row 6: variation of "CAP", but no variable product'),
    });
  });
});

describe("streaming", () => {
  test("stopping early closes the input", async () => {
    const lines = ["Title,Price\n", ...Array.from({ length: 5000 }, (_, i) => `Item ${i},1\n`)];
    const input = Readable.from(
      lines.map((l) => Buffer.from(l)),
      { objectMode: false, highWaterMark: 16 },
    );
    for await (const row of parseDocument(input, { maxBytes: 1_000_000 })) {
      expect(row.row).toBe(2);
      break;
    }
    expect(input.destroyed).toBe(true);
  });
});

describe("JSON and NDJSON", () => {
  test("a JSON array of objects, including our API's product shape and nested money", async () => {
    const items = [
      {
        title: "Lamp",
        sku: "L1",
        price: { amount: "39.90", currency: "EUR" },
        images: ["https://img.example/l.jpg"],
        variants: [
          {
            sku: "L1-B",
            title: "Black",
            price: { amount: "41.00", currency: "EUR" },
            options: { Colour: "Black" },
            gtin: null,
            availability: "InStock",
            image: null,
          },
        ],
      },
      {
        productName: "Mug",
        priceAmount: 12,
        currency: "usd",
        imageUrl: "https://img.example/m.jpg",
        ean: 4006381333931,
      },
      "not an object",
      { sku: "no-title" },
    ];
    const rows = await collect(JSON.stringify(items));
    expect(rows[0]).toMatchObject({
      row: 1,
      ok: true,
      product: {
        title: "Lamp",
        price: { amount: "39.90", currency: "EUR" },
        variants: [
          {
            sku: "L1-B",
            price: { amount: "41.00", currency: "EUR" },
            options: { Colour: "Black" },
          },
        ],
      },
    });
    expect(rows[1]).toMatchObject({
      row: 2,
      ok: true,
      product: {
        title: "Mug",
        price: { amount: "12.00", currency: "USD" },
        gtin: "4006381333931",
        images: ["https://img.example/m.jpg"],
      },
    });
    expect(rows[2]).toEqual({
      row: 3,
      ok: false,
      error: "item 3: expected a product object, found a string",
    });
    expect(rows[3]).toEqual({
      row: 4,
      ok: false,
      error: 'item 4: no title (expected a "title" or "name" key)',
    });
  });

  test('a wrapper object ({"items": [...]}) and Shopify\'s products.json shape', async () => {
    const doc = {
      page: 1,
      products: [
        {
          title: "Tee",
          vendor: "Acme",
          body_html: "<p>Soft</p>",
          options: [{ name: "Size" }],
          variants: [{ sku: "T-S", price: "10.00", option1: "S", available: true }],
          images: [{ src: "https://cdn.example/t.jpg" }],
        },
      ],
    };
    const [p] = products(await collect(JSON.stringify(doc), { currency: "CAD" }));
    expect(p).toMatchObject({
      title: "Tee",
      brand: "Acme",
      description: "<p>Soft</p>",
      sku: "T-S",
      price: { amount: "10.00", currency: "CAD" },
      images: ["https://cdn.example/t.jpg"],
    });
    expect(p!.variants[0]).toMatchObject({ options: { Size: "S" }, availability: "InStock" });
  });

  test("NDJSON: a bad line is one failed row", async () => {
    const rows = await collect(
      '{"name":"A","price":"1.00","currency":"EUR"}\n{"name": oops}\n\n{"name":"B"}\n',
      { filename: "feed.ndjson" },
    );
    expect(rows.map((r) => [r.row, r.ok])).toEqual([
      [1, true],
      [2, false],
      [4, true],
    ]);
    expect(rows[1]).toMatchObject({ error: stringMatching(/^line 2: not valid JSON/) });
  });

  test("a large JSON array is streamed: the first product arrives long before the input ends", async () => {
    let produced = 0;
    async function* source() {
      yield Buffer.from("[");
      for (let i = 0; i < 10_000; i += 100) {
        const batch = Array.from(
          { length: 100 },
          (_, k) =>
            `${i + k ? "," : ""}{"title":"Item ${i + k}","price":${i + k}.5,"currency":"EUR"}`,
        );
        produced += 100;
        yield Buffer.from(batch.join(""));
      }
      yield Buffer.from("]");
    }
    let first = -1;
    let count = 0;
    for await (const row of parseDocument(source(), { maxBytes: 10_000_000 })) {
      if (count++ === 0) first = produced;
      if (!row.ok) throw new Error(row.error);
    }
    expect(count).toBe(10_000);
    expect(first).toBeLessThan(3_000);
  });
});

describe("XLSX", () => {
  test("first worksheet, header on the first non-empty row, rich text, numbers, dates and hyperlinks as text", async () => {
    const workbook = xlsxWorkbook([
      {
        name: "Products",
        rows: [
          null,
          ["Title", "Price", "Currency", "Released", "Image", "GTIN"],
          [
            { richText: ["Oak ", "Table"] },
            249.9,
            "EUR",
            new Date(Date.UTC(2024, 0, 15)),
            { text: "https://img.example/t.jpg", hyperlink: "https://img.example/t.jpg" },
            4006381333931,
          ],
          null,
          ["Stool", { formula: "10*2", result: 20 }, "EUR", null, null, null],
        ],
      },
      { name: "Notes", rows: [["Title"]] },
    ]);
    const rows = await collect(workbook, { filename: "p.xlsx" });
    expect(rows).toEqual([
      {
        row: 3,
        ok: true,
        product: objectContaining({
          title: "Oak Table",
          price: { amount: "249.90", currency: "EUR" },
          images: ["https://img.example/t.jpg"],
          gtin: "4006381333931",
          attributes: { Released: "2024-01-15" },
        }),
      },
      {
        row: 5,
        ok: true,
        product: objectContaining({
          title: "Stool",
          price: { amount: "20.00", currency: "EUR" },
        }),
      },
    ]);
  });
});
