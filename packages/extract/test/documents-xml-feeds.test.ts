import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describeDocument, parseDocument, type DocumentRow } from "../src/documents/index.js";
import type { ProductCandidate } from "../src/product-candidate.js";

const fixture = (name: string) => readFileSync(new URL(`fixtures/xml/${name}`, import.meta.url));

async function collect(
  content: Buffer | string,
  meta: { filename?: string; currency?: string } = {},
): Promise<DocumentRow[]> {
  const rows: DocumentRow[] = [];
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  // Small chunks: items, CDATA and entities are cut across reads.
  const chunks = Array.from({ length: Math.ceil(bytes.length / 97) }, (_, i) =>
    bytes.subarray(i * 97, i * 97 + 97),
  );
  for await (const row of parseDocument(Readable.from(chunks), { maxBytes: 10_000_000, ...meta }))
    rows.push(row);
  return rows;
}

const products = (rows: DocumentRow[]) => rows.flatMap((r) => (r.ok ? [r.product] : []));
const bySku = (rows: DocumentRow[]) =>
  new Map(products(rows).map((p) => [p.sku, p] as const satisfies [unknown, ProductCandidate]));
/** SKUs of products and of their variants: grouping item_group_id may fold items into variants. */
const allSkus = (rows: DocumentRow[]) =>
  products(rows).flatMap((p) => [p.sku, ...p.variants.map((v) => v.sku)]);

describe("Google Merchant Center RSS 2.0 feed", () => {
  let rows: DocumentRow[] = [];
  beforeAll(async () => {
    rows = await collect(fixture("google-rss.xml"), { filename: "feed.xml" });
  });

  test("is read as XML", () => {
    expect(describeDocument(fixture("google-rss.xml"), { filename: "feed.xml" })).toEqual({
      format: "xml",
      encoding: null,
      delimiter: null,
    });
  });

  test("every item is imported, none refused", () => {
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    expect(allSkus(rows).sort()).toEqual([
      "DVD-0564738",
      "PFM654321",
      "PFM654321-M",
      "PFM654321-S",
      "TV_123456",
    ]);
    expect(rows).toHaveLength(3);
  });

  test("g: elements: price with its currency, quantity, availability, GTIN, brand, images", () => {
    const tv = bySku(rows).get("TV_123456")!;
    expect(tv).toMatchObject({
      title: 'LG 22LB4510 - 22" LED TV - 1080p (FullHD)',
      price: { amount: "159.00", currency: "USD" },
      quantity: 12,
      availability: "InStock",
      gtin: "8801234567891",
      brand: "LG",
      mpn: "22LB4510/US",
      sourceUrl: "https://www.example.com/electronics/tv/22LB4510.html",
      images: [
        "https://images.example.com/TV_123456.png",
        "https://images.example.com/TV_123456_side.png",
        "https://images.example.com/TV_123456_back.png",
      ],
    });
    // The shipping price nested in <g:shipping> is not the product's price.
    expect(tv.attributes.condition).toBe("new");
  });

  test("RSS title/link/description, sale price in a second currency, out of stock", () => {
    const dvd = bySku(rows).get("DVD-0564738")!;
    expect(dvd).toMatchObject({
      title: "Merlin: Series 3 - Volume 2 - 3 DVD Box set",
      price: { amount: "9.99", currency: "GBP" },
      availability: "OutOfStock",
      sourceUrl: "https://www.example.com/media/dvd/?sku=384616&src=gshopping",
      images: ["https://images.example.com/DVD-0564738?size=large&format=PNG"],
    });
    expect(dvd.description).toContain("third series of the BBC fantasy drama");
  });

  test("items of one item_group_id are one product with a variant each", () => {
    const pants = bySku(rows).get("PFM654321")!;
    expect(pants.variants.map((v) => [v.sku, v.price, v.options, v.availability])).toEqual([
      ["PFM654321-S", { amount: "69.00", currency: "USD" }, { size: "S" }, "InStock"],
      ["PFM654321-M", { amount: "69.00", currency: "USD" }, { size: "M" }, "BackOrder"],
    ]);
    expect(pants.price).toEqual({ amount: "69.00", currency: "USD" });
  });
});

test("a Google feed reads the same as RSS and as its TSV layout", async () => {
  const tsv =
    "id\ttitle\tlink\tprice\tsale_price\tavailability\tadditional_image_link\titem_group_id\tsize\n" +
    "A-S\tTee S\thttps://x.example/a\t10.00 EUR\t\tin_stock\thttps://x.example/1.jpg,https://x.example/2.jpg\tA\tS\n" +
    "A-M\tTee M\thttps://x.example/a\t10.00 EUR\t8.00 EUR\tout_of_stock\t\tA\tM\n";
  const rss = `<rss xmlns:g="http://base.google.com/ns/1.0"><channel>
    <item><g:id>A-S</g:id><title>Tee S</title><link>https://x.example/a</link><g:price>10.00 EUR</g:price>
      <g:availability>in_stock</g:availability><g:additional_image_link>https://x.example/1.jpg</g:additional_image_link>
      <g:additional_image_link>https://x.example/2.jpg</g:additional_image_link><g:item_group_id>A</g:item_group_id><g:size>S</g:size></item>
    <item><g:id>A-M</g:id><g:title>Tee M</g:title><g:link>https://x.example/a</g:link><g:price>10.00 EUR</g:price><g:sale_price>8.00 EUR</g:sale_price>
      <g:availability>out_of_stock</g:availability><g:item_group_id>A</g:item_group_id><g:size>M</g:size></item>
  </channel></rss>`;
  const fromTsv = products(await collect(tsv, { filename: "feed.tsv" }));
  const fromRss = products(await collect(rss, { filename: "feed.xml" }));
  expect(fromTsv).toHaveLength(1);
  expect(fromTsv[0]!.variants).toHaveLength(2);
  expect(fromRss).toEqual(fromTsv);
});

test("a Google item that cannot be read is reported by its number, the others imported", async () => {
  const rows = await collect(`<rss xmlns:g="http://base.google.com/ns/1.0"><channel>
    <item><g:id>OK-1</g:id><g:title>Mug</g:title><g:price>5.00 EUR</g:price></item>
    <item><g:id>BAD-2</g:id><g:title>Bowl</g:title><g:price>five euros</g:price></item>
    <item><g:id>NO-TITLE-3</g:id><g:price>5.00 EUR</g:price></item>
  </channel></rss>`);
  expect(rows.map((r) => [r.row, r.ok])).toEqual([
    [1, true],
    [2, false],
    [3, false],
  ]);
  expect(rows[1]!.ok ? null : rows[1]!.error).toMatch(/^item 2: .*element price/);
  expect(rows[2]!.ok ? null : rows[2]!.error).toMatch(/^item 3: no title/);
});

describe("Google Merchant Center Atom 1.0 feed", () => {
  test("reads as the RSS feed does, whatever the namespace prefix", async () => {
    const rows = await collect(fixture("google-atom.xml"));
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    expect(rows.map((r) => r.row)).toEqual([1, 2]);
    const [tv, dvd] = products(rows);
    expect(tv).toMatchObject({
      sku: "TV_123456",
      title: 'LG 22LB4510 - 22" LED TV - 1080p (FullHD)',
      description: "Attractively styled and boasting stunning picture quality.",
      price: { amount: "159.00", currency: "USD" },
      quantity: 12,
      sourceUrl: "https://www.example.com/electronics/tv/22LB4510.html",
    });
    expect(tv!.images).toHaveLength(3);
    expect(dvd).toMatchObject({
      sku: "DVD-0564738",
      price: { amount: "9.99", currency: "GBP" },
      availability: "OutOfStock",
      sourceUrl: "https://www.example.com/media/dvd/?sku=384616&src=gshopping",
    });
  });

  test("a price without a currency is kept aside, not guessed", async () => {
    const rows = await collect(
      `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0">
        <entry><g:id>A1</g:id><title>Mug</title><g:price>12.00</g:price></entry>
      </feed>`,
    );
    expect(
      products(rows).map((p) => [p.title, p.price, p.attributes.priceWithoutCurrency]),
    ).toEqual([["Mug", null, "12.00"]]);
  });
});

describe("WooCommerce WordPress export (WXR)", () => {
  let rows: DocumentRow[] = [];
  beforeAll(async () => {
    rows = await collect(fixture("woocommerce-wxr.xml"), { currency: "EUR" });
  });

  test("products with their variations as variants; pages and attachments are not products", () => {
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    expect(
      products(rows)
        .map((p) => p.sku)
        .sort(),
    ).toEqual(["woo-beanie", "woo-hoodie"]);
    const hoodie = bySku(rows).get("woo-hoodie")!;
    expect(hoodie.variants.map((v) => [v.sku, v.price, v.quantity, v.options])).toEqual([
      ["woo-hoodie-blue", { amount: "42.00", currency: "EUR" }, 7, { Color: "blue" }],
      ["woo-hoodie-green", { amount: "45.00", currency: "EUR" }, 3, { Color: "green" }],
    ]);
    expect(hoodie.quantity).toBe(10);
    expect(hoodie.attributes).toMatchObject({ type: "variable", categories: "Hoodies" });
  });

  test("images resolved through attachments that come after the products", () => {
    const hoodie = bySku(rows).get("woo-hoodie")!;
    expect(hoodie.images).toEqual([
      "https://shop.example.com/wp-content/uploads/2026/11/hoodie-2.jpg",
      "https://shop.example.com/wp-content/uploads/2026/11/hoodie-blue-1.jpg",
      "https://shop.example.com/wp-content/uploads/2026/11/hoodie-green-1.jpg",
    ]);
    expect(hoodie.variants[0]!.image).toBe(
      "https://shop.example.com/wp-content/uploads/2026/11/hoodie-blue-1.jpg",
    );
  });

  test("a simple product: sale price, stock count, out of stock", () => {
    expect(bySku(rows).get("woo-beanie")).toMatchObject({
      title: "Beanie",
      price: { amount: "18.00", currency: "EUR" },
      quantity: 0,
      availability: "OutOfStock",
      images: ["https://shop.example.com/wp-content/uploads/2026/11/beanie-2.jpg"],
      description: "<p>A knitted beanie.</p>",
    });
  });
});

describe("generic XML product list", () => {
  test("<products><product>: elements and attributes as keys, money with a currency attribute, nested images", async () => {
    const rows = await collect(`<?xml version="1.0" encoding="UTF-8"?>
<products>
  <product id="1" sku="MUG-1">
    <name>Enamel mug</name>
    <price currency="EUR">12.50</price>
    <quantity>4</quantity>
    <images><image>https://cdn.example.com/mug.jpg</image><image>https://cdn.example.com/mug-2.jpg</image></images>
  </product>
  <product id="2" sku="PLATE-1">
    <name>Plate &amp; saucer</name>
    <price currency="USD">8</price>
    <images><image>https://cdn.example.com/plate.jpg</image></images>
  </product>
</products>`);
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    expect(products(rows).map((p) => [p.sku, p.title, p.price, p.quantity, p.images])).toEqual([
      [
        "MUG-1",
        "Enamel mug",
        { amount: "12.50", currency: "EUR" },
        4,
        ["https://cdn.example.com/mug.jpg", "https://cdn.example.com/mug-2.jpg"],
      ],
      [
        "PLATE-1",
        "Plate & saucer",
        { amount: "8.00", currency: "USD" },
        null,
        ["https://cdn.example.com/plate.jpg"],
      ],
    ]);
  });

  test("one level deeper: <catalog><items><item>, items numbered in order", async () => {
    const rows = await collect(
      `<catalog><items><item><title>A</title><price>1.00</price></item><item><title>B</title><price>2.00</price></item></items></catalog>`,
      { currency: "CHF" },
    );
    expect(rows.map((r) => [r.row, r.ok && r.product.title, r.ok && r.product.price])).toEqual([
      [1, "A", { amount: "1.00", currency: "CHF" }],
      [2, "B", { amount: "2.00", currency: "CHF" }],
    ]);
  });

  test("a header element before the repeated ones is not a product", async () => {
    const rows = await collect(
      `<catalog><name>Spring</name><info><season>Spring</season></info>` +
        `<product><title>A</title><price>1.00</price></product>` +
        `<product><title>B</title><price>2.00</price></product></catalog>`,
      { currency: "EUR" },
    );
    expect(rows.map((r) => [r.row, r.ok && r.product.title])).toEqual([
      [1, "A"],
      [2, "B"],
    ]);
    const wrapped = await collect(
      `<catalog><info><season>Spring</season></info><items>` +
        `<item><title>C</title><price>3.00</price></item><item><title>D</title><price>4.00</price></item>` +
        `</items></catalog>`,
      { currency: "EUR" },
    );
    expect(wrapped.map((r) => [r.row, r.ok && r.product.title])).toEqual([
      [1, "C"],
      [2, "D"],
    ]);
  });

  test("a lone product as the root is refused: a list is expected", async () => {
    await expect(
      collect(`<product><sku>S-1</sku><name>Solo</name><price currency="EUR">5</price></product>`),
    ).rejects.toThrow(
      /expected the root element <product> to hold one element per product.*first child <sku> holds only text \(line 1\)/,
    );
  });

  test("a root of text-only elements is refused naming what was expected", async () => {
    await expect(
      collect(`<shop><name>Mine</name><url>https://x.example</url></shop>`),
    ).rejects.toThrow(
      /expected the root element <shop> to hold one element per product \(such as <product>\).*first child <name> holds only text \(line 1\)/,
    );
  });

  test("a large list arriving in one piece is read whole", async () => {
    const item = (i: number) =>
      `<product><sku>B-${i}</sku><name>Bulk ${i}</name><price currency="EUR">${i}.50</price></product>`;
    const xml = `<products>${Array.from({ length: 40_000 }, (_, i) => item(i)).join("")}</products>`;
    const rows: DocumentRow[] = [];
    for await (const row of parseDocument(Readable.from([Buffer.from(xml)]), {
      maxBytes: 10_000_000,
    }))
      rows.push(row);
    expect(xml.length).toBeGreaterThan(3_000_000);
    expect(rows.filter((r) => r.ok)).toHaveLength(40_000);
  });

  test("an ISO-8859-1 declaration is decoded so", async () => {
    const bytes = Buffer.concat([
      Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><products><product><name>Caf`),
      Buffer.from([0xe9]),
      Buffer.from(`</name><price currency="EUR">3</price></product></products>`),
    ]);
    const rows = await collect(bytes);
    expect(products(rows).map((p) => p.title)).toEqual(["Café"]);
  });

  test("UTF-16 with a BOM", async () => {
    const text = `<?xml version="1.0" encoding="UTF-16"?><products><product><name>Çay</name><price currency="TRY">40</price></product></products>`;
    const rows = await collect(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
    );
    expect(products(rows).map((p) => [p.title, p.price])).toEqual([
      ["Çay", { amount: "40.00", currency: "TRY" }],
    ]);
  });
});
