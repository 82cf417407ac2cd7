import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { parseDocument, type DocumentRow } from "../src/documents/index.js";

const FEED = readFileSync(new URL("./fixtures/google-merchant-feed.tsv", import.meta.url));

async function collect(content: Buffer | string, filename = "feed.tsv") {
  const rows: DocumentRow[] = [];
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  for await (const row of parseDocument(Readable.from([bytes]), { maxBytes: 10_000_000, filename }))
    rows.push(row);
  return rows;
}

function products(rows: DocumentRow[]) {
  return rows.flatMap((r) => (r.ok ? [r.product] : []));
}

describe("Google Merchant Center TSV feed", () => {
  test("simple items and one item_group_id make 3 products, the group with 4 variants", async () => {
    const rows = await collect(FEED);
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    const all = products(rows);
    expect(all.map((p) => p.title)).toEqual([
      "LG 22LB4510 22 inch LED TV 1080p (FullHD)",
      "Ready Player One (Paperback)",
      "Women's Striped Shirt",
    ]);
    expect(all.map((p) => p.variants.length)).toEqual([0, 0, 4]);
  });

  test("prices keep the currency the cell names; a sale price wins", async () => {
    const [tv, book, shirt] = products(await collect(FEED));
    expect(tv!.price).toEqual({ amount: "159.00", currency: "USD" });
    expect(book!.price).toEqual({ amount: "9.99", currency: "GBP" });
    expect(shirt!.variants.map((v) => v.price)).toEqual([
      { amount: "15.00", currency: "USD" },
      { amount: "15.00", currency: "USD" },
      { amount: "12.00", currency: "USD" },
      { amount: "15.00", currency: "USD" },
    ]);
    expect(shirt!.price).toEqual({ amount: "15.00", currency: "USD" });
  });

  test("availability words and quantities", async () => {
    const [tv, book, shirt] = products(await collect(FEED));
    expect([tv!.availability, tv!.quantity]).toEqual(["InStock", 7]);
    expect([book!.availability, book!.quantity]).toEqual(["OutOfStock", 0]);
    expect(shirt!.variants.map((v) => [v.availability, v.quantity])).toEqual([
      ["InStock", 3],
      ["InStock", 5],
      ["OutOfStock", 0],
      ["BackOrder", 2],
    ]);
    expect(shirt!.quantity).toBe(10);
  });

  test("image_link with comma-separated additional_image_link; a group's images from all items", async () => {
    const [tv, , shirt] = products(await collect(FEED));
    expect(tv!.images).toEqual([
      "https://images.example.com/TV_123456.png",
      "https://images.example.com/TV_123456_2.png",
      "https://images.example.com/TV_123456_3.png",
    ]);
    expect(shirt!.images).toEqual([
      "https://images.example.com/CLOTH22-BLU.jpg",
      "https://images.example.com/CLOTH22-RED.jpg",
    ]);
    expect(shirt!.variants[2]!.image).toBe("https://images.example.com/CLOTH22-RED.jpg");
  });

  test("variant options are the attributes that differ in the group; the rest are the product's", async () => {
    const shirt = products(await collect(FEED))[2]!;
    expect(shirt.variants.map((v) => [v.sku, v.options])).toEqual([
      ["CLOTH22-BLU-S", { color: "Blue", size: "S" }],
      ["CLOTH22-BLU-M", { color: "Blue", size: "M" }],
      ["CLOTH22-RED-S", { color: "Red", size: "S" }],
      ["CLOTH22-RED-M", { color: "Red", size: "M" }],
    ]);
    expect(shirt.sku).toBe("CLOTH22");
    expect(shirt.attributes).toMatchObject({ gender: "female", age_group: "adult" });
  });

  test("items of one group far apart, and headers with a g: prefix, still make one product", async () => {
    const tsv = [
      "g:id\tg:title\tg:price\tg:availability\tg:item_group_id\tg:size",
      "A-S\tRunner Sock S\t5.00 EUR\tin stock\tA\tS",
      "B\tCap\t9.00 EUR\tin stock\t\t",
      "A-L\tRunner Sock L\t6.00 EUR\tin stock\tA\tL",
    ].join("\n");
    const all = products(await collect(tsv));
    expect(all.map((p) => [p.title, p.variants.length, p.price])).toEqual([
      ["Cap", 0, { amount: "9.00", currency: "EUR" }],
      ["Runner Sock", 2, { amount: "5.00", currency: "EUR" }],
    ]);
  });

  test("a title made of options first takes the first title without the option words", async () => {
    const tsv = [
      "id\ttitle\tprice\tlink\titem_group_id\tcolor",
      "M-R\tRed Mug\t8.00 USD\thttps://example.com/m\tM\tRed",
      "M-B\tBlue Mug\t8.00 USD\thttps://example.com/m\tM\tBlue",
    ].join("\n");
    expect(products(await collect(tsv)).map((p) => p.title)).toEqual(["Mug"]);
  });

  test("a sale price outside its sale_price_effective_date is not the price", async () => {
    const tsv = [
      "id\ttitle\tprice\tsale_price\tsale_price_effective_date\tlink",
      "1\tLamp\t30.00 USD\t20.00 USD\t2016-02-24T11:07+0100/2016-02-29T23:07+0100\thttps://example.com/l",
    ].join("\n");
    expect(products(await collect(tsv))[0]!.price).toEqual({ amount: "30.00", currency: "USD" });
  });

  test("a feed-like sheet with a currency column and custom columns keeps both", async () => {
    const tsv = [
      "id\ttitle\tprice\tcurrency\tlink\twarehouse",
      "7\tDesk\t120\tCHF\thttps://example.com/d\tZurich",
    ].join("\n");
    const [desk] = products(await collect(tsv));
    expect(desk!.price).toEqual({ amount: "120.00", currency: "CHF" });
    expect(desk!.attributes.warehouse).toBe("Zurich");
  });

  test("a price Google's way that cannot be read names the row and column", async () => {
    const tsv = ["id\ttitle\tprice\tlink", "1\tLamp\tfree\thttps://example.com/l"].join("\n");
    expect(await collect(tsv)).toEqual([
      { row: 2, ok: false, error: 'row 2: cannot read the price "free" (column price)' },
    ]);
  });
});
