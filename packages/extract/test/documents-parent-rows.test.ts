import { Readable } from "node:stream";
import { recogniseColumns } from "../src/documents/column-mapping.js";
import { parseDocument, type DocumentRow } from "../src/documents/index.js";

async function collect(csv: string) {
  const rows: DocumentRow[] = [];
  const input = Readable.from([Buffer.from(csv)]);
  for await (const row of parseDocument(input, { maxBytes: 1_000_000, filename: "sheet.csv" }))
    rows.push(row);
  return rows;
}

function products(rows: DocumentRow[]) {
  return rows.flatMap((r) => (r.ok ? [r.product] : []));
}

const img = (name: string) => `https://cdn.example.com/${name}.jpg`;

/** 11 rows: 7 products, 4 of the rows variants naming their parent's SKU in parent_sku. */
const SHEET = [
  "sku,parent_sku,title,price,currency,quantity,image,color,size",
  `TEE,,Organic Cotton Tee,25.00,EUR,,${img("tee")},,`,
  `TEE-BLK-S,TEE,,25.00,EUR,4,${img("tee-black")},Black,S`,
  `TEE-BLK-M,TEE,,27.00,EUR,6,${img("tee-black")},Black,M`,
  `MUG,,Enamel Mug,12.00,EUR,30,${img("mug")},White,`,
  `CAP-RED,CAP,Wool Cap Red,18.00,EUR,2,${img("cap-red")},Red,`,
  `CAP,,Wool Cap,,,,${img("cap")},,`,
  `CAP-BLUE,CAP,Wool Cap Blue,19.00,EUR,0,${img("cap-blue")},Blue,`,
  `BAG,,Canvas Tote,15.00,EUR,8,${img("bag")},,`,
  `SOCK,,Merino Socks,9.50,EUR,40,,,`,
  `PEN,,Fountain Pen,32.00,EUR,5,,,`,
  `BOOK,,Sketch Book,7.25,EUR,12,,,`,
].join("\n");

describe("sheets whose variant rows name their parent", () => {
  test("11 rows, 4 of them variants naming their parent in parent_sku: 7 products, 4 variants", async () => {
    const rows = await collect(SHEET);
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    const all = products(rows);
    expect(all).toHaveLength(7);
    expect(all.reduce((n, p) => n + p.variants.length, 0)).toBe(4);
    expect(
      Object.fromEntries(
        all.filter((p) => p.variants.length > 0).map((p) => [p.sku, p.variants.length]),
      ),
    ).toEqual({ TEE: 2, CAP: 2 });
  });

  test("two option columns become each variant's options", async () => {
    const tee = products(await collect(SHEET)).find((p) => p.sku === "TEE")!;
    expect(tee.variants.map((v) => [v.sku, v.options])).toEqual([
      ["TEE-BLK-S", { color: "Black", size: "S" }],
      ["TEE-BLK-M", { color: "Black", size: "M" }],
    ]);
  });

  test("variants keep their own prices with currency, quantities and images; the parent totals the stock", async () => {
    const tee = products(await collect(SHEET)).find((p) => p.sku === "TEE")!;
    expect(tee.variants.map((v) => [v.price, v.quantity, v.image])).toEqual([
      [{ amount: "25.00", currency: "EUR" }, 4, img("tee-black")],
      [{ amount: "27.00", currency: "EUR" }, 6, img("tee-black")],
    ]);
    expect(tee.price).toEqual({ amount: "25.00", currency: "EUR" });
    expect(tee.quantity).toBe(10);
    expect(tee.images).toEqual([img("tee")]);
    expect(tee.title).toBe("Organic Cotton Tee");
  });

  test("a variant row before its parent still lands on it, in row order", async () => {
    const cap = products(await collect(SHEET)).find((p) => p.sku === "CAP")!;
    expect(cap.variants.map((v) => [v.sku, v.title, v.options])).toEqual([
      ["CAP-RED", "Wool Cap Red", { color: "Red" }],
      ["CAP-BLUE", "Wool Cap Blue", { color: "Blue" }],
    ]);
  });

  test("a parent without a price of its own takes its first variant's; stock from the variants", async () => {
    const cap = products(await collect(SHEET)).find((p) => p.sku === "CAP")!;
    expect(cap.price).toEqual({ amount: "18.00", currency: "EUR" });
    expect(cap.quantity).toBe(2);
    expect(cap.variants.map((v) => v.availability)).toEqual(["InStock", "OutOfStock"]);
  });

  test("a variant without a price takes its parent's", async () => {
    const rows = await collect(
      ["sku,parent sku,name,price,size", "JAR,,Honey Jar,6.00 EUR,", "JAR-S,JAR,,,250 g"].join(
        "\n",
      ),
    );
    const [jar] = products(rows);
    expect(jar!.variants.map((v) => [v.options, v.price])).toEqual([
      [{ size: "250 g" }, { amount: "6.00", currency: "EUR" }],
    ]);
  });

  test("options of a product row are its attributes; a sheet without a parent column is unchanged", async () => {
    const all = products(await collect(SHEET));
    expect(all.find((p) => p.sku === "MUG")!.attributes).toMatchObject({ color: "White" });
    const [plain] = products(await collect("title,price,currency,color\nLamp,30,USD,Green\n"));
    expect([plain!.variants, plain!.attributes.color]).toEqual([[], "Green"]);
  });

  test("variant rows whose parent is in no row are one product of their own, named by the group", async () => {
    const rows = await collect(
      [
        "item_group_id,sku,title,price,colour",
        "HOODIE,HD-GRY,Zip Hoodie - Grey,49.00 GBP,Grey",
        "HOODIE,HD-NVY,Zip Hoodie - Navy,49.00 GBP,Navy",
        ",SCARF,Lambswool Scarf,25.00 GBP,",
      ].join("\n"),
    );
    const all = products(rows);
    expect(all.map((p) => [p.title, p.sku, p.variants.length, p.price])).toEqual([
      ["Lambswool Scarf", "SCARF", 0, { amount: "25.00", currency: "GBP" }],
      ["Zip Hoodie", "HOODIE", 2, { amount: "49.00", currency: "GBP" }],
    ]);
    expect(all[1]!.variants.map((v) => v.options)).toEqual([
      { colour: "Grey" },
      { colour: "Navy" },
    ]);
  });

  test("a parent row whose parent cell names itself is the parent, not a variant", async () => {
    const rows = await collect(
      [
        "sku,parent_sku,title,price,currency,size",
        "BOX,BOX,Storage Box,10.00,EUR,",
        "BOX-L,BOX,Storage Box L,14.00,EUR,L",
      ].join("\n"),
    );
    expect(products(rows).map((p) => [p.sku, p.title, p.variants.map((v) => v.sku)])).toEqual([
      ["BOX", "Storage Box", ["BOX-L"]],
    ]);
  });

  test("Option1 Name + Option1 Value columns give options named by the row", async () => {
    const rows = await collect(
      [
        "SKU,Parent SKU,Title,Price,Currency,Option1 Name,Option1 Value",
        "KETTLE,,Stove Kettle,40.00,EUR,,",
        "KETTLE-1L,KETTLE,,40.00,EUR,Capacity,1 l",
        "KETTLE-2L,KETTLE,,45.00,EUR,Capacity,2 l",
      ].join("\n"),
    );
    expect(products(rows)[0]!.variants.map((v) => [v.options, v.price?.amount])).toEqual([
      [{ Capacity: "1 l" }, "40.00"],
      [{ Capacity: "2 l" }, "45.00"],
    ]);
  });
});

describe("parent and option headers", () => {
  test("parent columns under the names shops and feeds use", () => {
    for (const header of [
      "parent_sku",
      "parent",
      "Parent SKU",
      "parentsku",
      "item_group_id",
      "itemgroupid",
      "group id",
    ])
      expect(recogniseColumns(["title", header])[1]).toMatchObject({ field: "parent" });
  });

  test("option columns keep their header as the option name", () => {
    expect(
      recogniseColumns(["Colour", "size", "Material", "Style", "age_group"]).map((a) => [
        a.field,
        a.name,
      ]),
    ).toEqual([
      ["option", "Colour"],
      ["option", "size"],
      ["option", "Material"],
      ["option", "Style"],
      ["option", "age_group"],
    ]);
  });

  test("Attribute 1 name + Attribute 1 value(s): the value column is an option named by the name column", () => {
    const [name, value] = recogniseColumns(["Attribute 1 name", "Attribute 1 value(s)"]);
    expect(name).toMatchObject({ field: "ignore" });
    expect(value).toMatchObject({ field: "option", nameColumn: 0 });
  });
});
