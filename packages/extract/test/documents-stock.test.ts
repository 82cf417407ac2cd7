// Stock columns of the platforms' exports and of generic spreadsheets and JSON: the count is
// read, the availability follows it, and a cell that is not a count is that row's error.
import { Readable } from "node:stream";
import { stringContaining } from "@catalog/test-support/matchers";
import { parseDocument, type DocumentRow } from "../src/documents/index.js";

async function collect(content: string, currency = "EUR") {
  const rows: DocumentRow[] = [];
  for await (const row of parseDocument(Readable.from([Buffer.from(content)]), {
    maxBytes: 1_000_000,
    currency,
  }))
    rows.push(row);
  return rows;
}
const products = (rows: DocumentRow[]) => rows.flatMap((r) => (r.ok ? [r.product] : []));

const SHOPIFY_HEADER =
  "Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy";

describe("Shopify's Variant Inventory Qty", () => {
  test("each tracked variant's count; the product has their total; untracked stock stays unknown", async () => {
    const csv = [
      SHOPIFY_HEADER,
      "tee,Tee,Size,S,TEE-S,10.00,shopify,4,deny",
      "tee,,,M,TEE-M,10.00,shopify,0,deny",
      "mug,Mug,Title,Default Title,MUG,5.00,,7,deny",
    ].join("\n");
    const [tee, mug] = products(await collect(csv));
    expect(tee).toMatchObject({ quantity: 4, availability: "InStock" });
    expect(tee!.variants).toMatchObject([
      { sku: "TEE-S", quantity: 4, availability: "InStock" },
      { sku: "TEE-M", quantity: 0, availability: "OutOfStock" },
    ]);
    expect(tee!.provenance.quantity).toEqual({
      source: "document",
      method: "column Variant Inventory Qty",
    });
    expect(mug).toMatchObject({ quantity: null, availability: null });
    expect(mug!.variants[0]!.quantity).toBeUndefined();
  });

  test("an oversold variant (a count below 0) has none on hand; a count that is not a number is the product's error", async () => {
    const csv = [
      SHOPIFY_HEADER,
      "cap,Cap,Size,S,CAP-S,8.00,shopify,-2,continue",
      "hat,Hat,Size,S,HAT-S,8.00,shopify,lots,deny",
    ].join("\n");
    const rows = await collect(csv);
    expect(rows[0]).toMatchObject({
      ok: true,
      product: { quantity: 0, availability: "OutOfStock" },
    });
    expect(rows[1]).toEqual({
      row: 3,
      ok: false,
      error:
        'row 3: cannot read the stock "lots" (column Variant Inventory Qty): a stock is a whole number from 0 to 2147483647',
    });
  });
});

describe("WooCommerce's Stock and In stock?", () => {
  test("a simple product's and each variation's Stock; the variable product has their total", async () => {
    const csv = [
      "ID,Type,SKU,Name,Parent,Regular price,In stock?,Stock,Attribute 1 name,Attribute 1 value(s)",
      "1,simple,MUG,Mug,,5,1,12,,",
      "2,simple,BOWL,Bowl,,6,1,0,,",
      '10,variable,TEE,Tee,,,1,,Size,"S, M"',
      "11,variation,TEE-S,Tee - S,TEE,10,1,3,Size,S",
      "12,variation,TEE-M,Tee - M,TEE,10,0,0,Size,M",
      "3,simple,PLATE,Plate,,4,1,,,",
    ].join("\n");
    const [mug, bowl, plate, tee] = products(await collect(csv));
    expect(mug).toMatchObject({ title: "Mug", quantity: 12, availability: "InStock" });
    expect(bowl).toMatchObject({ title: "Bowl", quantity: 0, availability: "OutOfStock" });
    expect(plate).toMatchObject({ title: "Plate", quantity: null, availability: "InStock" });
    expect(tee).toMatchObject({ title: "Tee", quantity: 3, availability: "InStock" });
    expect(tee!.variants).toMatchObject([
      { sku: "TEE-S", quantity: 3, availability: "InStock" },
      { sku: "TEE-M", quantity: 0, availability: "OutOfStock" },
    ]);
  });

  test("a Stock with a fraction or below 0 is that row's error; the other rows are read", async () => {
    const csv = [
      "ID,Type,SKU,Name,Parent,Regular price,In stock?,Stock",
      "1,simple,A,Alpha,,5,1,2.5",
      "2,simple,B,Beta,,5,1,-1",
      "3,simple,C,Gamma,,5,1,1",
    ].join("\n");
    const rows = await collect(csv);
    expect(rows.map((r) => (r.ok ? r.product.title : r.error))).toEqual([
      'row 2: cannot read the stock "2.5" (column Stock): a stock is a whole number from 0 to 2147483647',
      'row 3: cannot read the stock "-1" (column Stock): a stock is a whole number from 0 to 2147483647',
      "Gamma",
    ]);
  });
});

describe("generic stock columns", () => {
  test.each(["Quantity", "Stock", "Inventory", "Qty", "Stock Quantity"])(
    'a "%s" column is the count',
    async (header) => {
      const [p] = products(await collect(`Title,Price,${header}\nLamp,20.00,5\n`));
      expect(p).toMatchObject({ quantity: 5, availability: "InStock" });
      expect(p!.provenance.quantity).toEqual({ source: "document", method: `column ${header}` });
    },
  );

  test("a count of 0 makes it out of stock whatever the availability column says; a pre-order with stock stays one", async () => {
    const csv = "Title,Availability,Quantity\nLamp,in stock,0\nDesk,preorder,4\n";
    const [lamp, desk] = products(await collect(csv));
    expect(lamp).toMatchObject({ quantity: 0, availability: "OutOfStock" });
    expect(desk).toMatchObject({ quantity: 4, availability: "PreOrder" });
  });

  test("a stock column holding words gives the availability, not a count", async () => {
    const [p] = products(await collect("Title,Stock\nLamp,in stock\n"));
    expect(p).toMatchObject({ quantity: null, availability: "InStock" });
  });

  test("text, negative counts and fractions are row errors naming the cell", async () => {
    const rows = await collect("Title,Qty\nA,many\nB,-3\nC,1.5\nD,7.0\n");
    expect(rows.map((r) => (r.ok ? r.product.quantity : r.error))).toEqual([
      stringContaining('row 2: cannot read the stock "many" (column Qty)'),
      stringContaining('row 3: cannot read the stock "-3" (column Qty)'),
      stringContaining('row 4: cannot read the stock "1.5" (column Qty)'),
      7,
    ]);
  });

  test("JSON and NDJSON: the product's and each variant's quantity", async () => {
    const items = [
      {
        title: "Tee",
        quantity: 9,
        variants: [
          { sku: "T-S", price: "10.00", option1: "S", quantity: 0 },
          { sku: "T-M", price: "10.00", option1: "M", inventory_quantity: 9 },
        ],
      },
      { title: "Bad", quantity: -4 },
    ];
    const rows = await collect(JSON.stringify(items));
    expect(rows[0]).toMatchObject({
      ok: true,
      product: {
        quantity: 9,
        availability: "InStock",
        variants: [
          { sku: "T-S", quantity: 0, availability: "OutOfStock" },
          { sku: "T-M", quantity: 9, availability: "InStock" },
        ],
      },
    });
    expect(rows[1]).toMatchObject({ ok: false, error: stringContaining('"-4"') });
  });
});
