import { readFileSync } from "node:fs";
import { createTestOrg } from "@catalog/testing";
import type { Import, ImportRow, List, ProductFields, ProductListItem } from "../src/api-types.js";
import { login, resolveTestHost, startGateway, type Gateway } from "./harness.js";
import { documentUpload } from "./multipart.js";

// Every platform export the extract package reads, driven through the API as a merchant would:
// upload (POST /api/imports), preview rows, store, then the catalog (GET /api/products). The
// files are the extract package's fixtures, read in place; the counts below are read off them.

let gw: Gateway;

beforeAll(async () => {
  gw = await startGateway(
    { LOCAL_INGEST: "true", DOCUMENT_MAX_BYTES: "400000" },
    {
      // The fixtures' images live under example.com (reserved for documentation, public).
      resolveHost: (host) =>
        /(^|\.)example\.com$/.test(host)
          ? Promise.resolve([{ address: "93.184.216.34", family: 4 }])
          : resolveTestHost(host),
    },
  );
});
afterAll(() => gw.close());

const FIXTURES = new URL("../../../packages/extract/test/fixtures/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES));

/** What a merchant checks of a product: price with currency, stock, images, variants. */
interface Summary {
  sku: string | null;
  price: string | null;
  quantity: number | null;
  images: number;
  variants: [string | null, Record<string, string>, string | null, number | null][];
}
const money = (m: ProductFields["price"]) => (m ? `${m.amount} ${m.currency}` : null);
const summary = (p: ProductFields): Summary => ({
  sku: p.sku,
  price: money(p.price),
  quantity: p.quantity,
  images: p.images.length,
  variants: p.variants.map((v) => [v.sku, v.options, money(v.price), v.quantity ?? null]),
});
const bySku = (a: Summary, b: Summary) => (a.sku ?? "").localeCompare(b.sku ?? "");

/**
 * Uploads one file in an organisation of its own, waits for the preview, stores it, and answers
 * the preview's rows and the stored products, each summarised and in SKU order.
 */
async function importThrough(
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
  type = "text/csv",
) {
  const org = await createTestOrg(gw.db, `platform ${filename}`);
  const cookie = await login(gw.app, org.member.email, org.member.password);
  const get = (url: string) => gw.app.inject({ method: "GET", url, headers: { cookie } });
  const settle = async (id: string, status: Import["status"]) => {
    const deadline = Date.now() + 25_000;
    for (;;) {
      const body = (await get(`/api/imports/${id}`)).json<Import>();
      if (body.status !== status) return body;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const body = documentUpload(file, filename, fields, type);
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/imports",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(202);
  const ready = await settle(res.json<Import>().id, "previewing");
  expect(ready).toMatchObject({ status: "ready", error: null });
  const rows = (await get(`/api/imports/${ready.id}/rows?pageSize=100`)).json<List<ImportRow>>();
  expect(rows.items.filter((r) => r.outcome === "error").map((r) => [r.row, r.error])).toEqual([]);
  for (const row of rows.items) {
    expect([row.row, row.droppedImages ?? []]).toEqual([row.row, []]);
  }

  const store = await gw.app.inject({
    method: "POST",
    url: `/api/imports/${ready.id}/store`,
    headers: { cookie },
    payload: {},
  });
  expect(store.statusCode).toBe(202);
  const stored = await settle(ready.id, "storing");
  const products = (await get("/api/products?pageSize=100")).json<List<ProductListItem>>();
  return {
    ready,
    stored,
    rows: rows.items,
    preview: rows.items.flatMap((r) => (r.product ? [summary(r.product)] : [])).sort(bySku),
    products: products.items.map(summary).sort(bySku),
    product: (sku: string) => products.items.find((p) => p.sku === sku)!,
  };
}

/** The preview rows' warnings, by the SKU of the product each row stores (rows with some). */
const warningsOf = (rows: ImportRow[]): Record<string, string[]> =>
  Object.fromEntries(
    rows
      .filter((r) => r.warnings.length > 0)
      .map((r): [string, string[]] => [r.product?.sku ?? `row ${r.row}`, r.warnings]),
  );

/** Asserts the preview and the catalog hold the same products, and that they are `expected`. */
function expectBoth(got: { preview: Summary[]; products: Summary[] }, expected: Summary[]) {
  expect(got.preview).toEqual(expected);
  expect(got.products).toEqual(expected);
}

test("a Magento 2 catalog export: configurables with their simple children as variants, simples alone", async () => {
  const got = await importThrough(fixture("magento-catalog-product.csv"), "catalog_product.csv", {
    currency: "USD",
  });
  expect(got.ready.counts).toMatchObject({ create: 4, error: 0 });
  expect(got.stored).toMatchObject({ status: "stored", result: { created: 4 } });
  expectBoth(got, [
    { sku: "24-MB01", price: "34.00 USD", quantity: 100, images: 1, variants: [] },
    // special_price is what it sells for.
    { sku: "24-MB04", price: "25.60 USD", quantity: 40, images: 0, variants: [] },
    {
      sku: "MH01",
      price: "52.00 USD",
      quantity: 105,
      images: 2,
      variants: [
        ["MH01-XS-Black", { Color: "Black", Size: "XS" }, "52.00 USD", 100],
        ["MH01-XS-Gray", { Color: "Gray", Size: "XS" }, "52.00 USD", 0],
        ["MH01-S-Black", { Color: "Black", Size: "S" }, "49.00 USD", 5],
      ],
    },
    {
      sku: "WS12",
      price: "22.00 USD",
      quantity: 60,
      images: 2,
      variants: [
        ["WS12-XS-Blue", { Color: "Blue", Size: "XS" }, "22.00 USD", 10],
        ["WS12-S-Blue", { Color: "Blue", Size: "S" }, "22.00 USD", 20],
        ["WS12-M-Blue", { Color: "Blue", Size: "M" }, "22.00 USD", 30],
        ["WS12-M-Orange", { Color: "Orange", Size: "M" }, "24.00 USD", 0],
      ],
    },
  ]);
  // Image paths relative to Magento's media folder are not web addresses: left out, and said so.
  expect(warningsOf(got.rows)).toEqual({
    MH01: [
      "the image /m/h/mh01-black_back.jpg is a path on the shop's own server, not a web address, so it is left out: export the file with full image URLs (https://...), or add the images to the product after storing",
    ],
    "24-MB01": [expect.stringMatching(/^the image \/m\/b\/mb01-blue-1\.jpg is a path/)],
  });
  expect(got.product("24-MB01")).toMatchObject({ brand: "Acme", gtin: "0012345678905" });
  expect(got.product("24-MB04")).toMatchObject({ brand: "Strive", mpn: "STR-04" });
});

test("a PrestaShop products CSV: the tax-included price is the one stored, decimal comma too", async () => {
  const got = await importThrough(fixture("prestashop-products.csv"), "products_import.csv", {
    currency: "EUR",
  });
  expect(got.ready.counts).toMatchObject({ create: 3, error: 0 });
  expect(got.stored).toMatchObject({ status: "stored", result: { created: 3 } });
  expectBoth(got, [
    { sku: "demo_1", price: "28.68 EUR", quantity: 300, images: 2, variants: [] },
    { sku: "demo_11", price: "14.28 EUR", quantity: 150, images: 1, variants: [] },
    // No tax-included price in its row: the tax-excluded one.
    { sku: "demo_14", price: "13.90 EUR", quantity: 0, images: 0, variants: [] },
  ]);
  expect(got.product("demo_1").attributes).toMatchObject({ priceTax: "included" });
  expect(got.product("demo_14")).toMatchObject({
    availability: "OutOfStock",
    attributes: { priceTax: "excluded", active: false },
  });
});

test("a PrestaShop products file with combination rows: combinations are variants, tax included", async () => {
  const got = await importThrough(
    fixture("prestashop-products-combinations.csv"),
    "products_import.csv",
    { currency: "EUR" },
  );
  expect(got.ready.counts).toMatchObject({ create: 2, error: 0 });
  expect(got.stored).toMatchObject({ status: "stored", result: { created: 2 } });
  // Impact on price is tax excluded: (23.90 + 1.00) and (23.90 - 2.00), times 28.68 / 23.90.
  expectBoth(got, [
    {
      sku: "demo_1",
      price: "28.68 EUR",
      quantity: 200,
      // The product's image; the combination's own image stays on its variant (below).
      images: 1,
      variants: [
        ["demo_1_s_white", { Size: "S", Color: "White" }, "28.68 EUR", 120],
        ["demo_1_m_white", { Size: "M", Color: "White" }, "29.88 EUR", 80],
        ["demo_1_l_black", { Size: "L", Color: "Black" }, "26.28 EUR", 0],
      ],
    },
    { sku: "demo_11", price: "14.28 EUR", quantity: 150, images: 0, variants: [] },
  ]);
  const shirt = got.product("demo_1");
  expect(shirt.variants.map((v) => [v.gtin, v.image, v.availability])).toEqual([
    ["3700000000024", null, "InStock"],
    [null, "https://shop.example.com/img/p/1/4.jpg", "InStock"],
    [null, null, "OutOfStock"],
  ]);
  expect(shirt.attributes).toMatchObject({ priceTax: "included" });
});

test("a BigCommerce legacy export: SKU rows are variants, Rule rows change their price", async () => {
  const got = await importThrough(fixture("bigcommerce-legacy-export.csv"), "products.csv", {
    currency: "USD",
  });
  expect(got.ready.counts).toMatchObject({ create: 3, error: 0 });
  expect(got.stored).toMatchObject({ status: "stored", result: { created: 3 } });
  expectBoth(got, [
    // Price 225.00, sale price 0 (none); stock not tracked: no count.
    { sku: "ABS", price: "225.00 USD", quantity: null, images: 0, variants: [] },
    // Sale price 99.00 under a price of 109.00.
    { sku: "OTL", price: "99.00 USD", quantity: 12, images: 1, variants: [] },
    {
      sku: "SLCTBS",
      price: "49.00 USD",
      quantity: 15,
      images: 1,
      variants: [
        ["SLCTBS-S", { Size: "Small", Color: "Beige" }, "49.00 USD", 10],
        ["SLCTBS-L", { Size: "Large", Color: "Beige" }, "59.00 USD", 5],
      ],
    },
  ]);
  // "Product Image File - 2" names a file uploaded to the store, not a web address.
  expect(warningsOf(got.rows)).toEqual({
    SLCTBS: [expect.stringMatching(/^the image towel2\.jpg is a path on the shop's own server/)],
  });
});

test("a BigCommerce bulk-edit template: Variant and Image rows land on their Product", async () => {
  const got = await importThrough(fixture("bigcommerce-bulk-edit.csv"), "bulk-edit.csv", {
    currency: "GBP",
  });
  expect(got.ready.counts).toMatchObject({ create: 2, error: 0 });
  expect(got.stored).toMatchObject({ status: "stored", result: { created: 2 } });
  expectBoth(got, [
    { sku: "SPK-1", price: "64.00 GBP", quantity: 40, images: 0, variants: [] },
    {
      sku: "TSHIRT",
      price: "25.00 GBP",
      quantity: 20,
      // Two Image rows and the black variant's image.
      images: 3,
      variants: [
        ["TSHIRT-S-WHT", { Size: "S", Colour: "White" }, "25.00 GBP", 12],
        ["TSHIRT-M-WHT", { Size: "M", Colour: "White" }, "25.00 GBP", 8],
        ["TSHIRT-L-BLK", { Size: "L", Colour: "Black" }, "27.00 GBP", 0],
      ],
    },
  ]);
});

test("a Google Merchant TSV feed: currencies from the prices, an item group as one product", async () => {
  const got = await importThrough(
    fixture("google-merchant-feed.tsv"),
    "feed.tsv",
    {},
    "text/tab-separated-values",
  );
  expect(got.ready.counts).toMatchObject({ create: 3, error: 0 });
  expect(got.stored).toMatchObject({ status: "stored", result: { created: 3 } });
  expectBoth(got, [
    // sale_price 9.99 GBP under 12.50 GBP.
    { sku: "BK_0001", price: "9.99 GBP", quantity: 0, images: 1, variants: [] },
    {
      sku: "CLOTH22",
      price: "15.00 USD",
      quantity: 10,
      images: 2,
      variants: [
        ["CLOTH22-BLU-S", { color: "Blue", size: "S" }, "15.00 USD", 3],
        ["CLOTH22-BLU-M", { color: "Blue", size: "M" }, "15.00 USD", 5],
        ["CLOTH22-RED-S", { color: "Red", size: "S" }, "12.00 USD", 0],
        ["CLOTH22-RED-M", { color: "Red", size: "M" }, "15.00 USD", 2],
      ],
    },
    // image_link and two additional_image_link.
    { sku: "TV_123456", price: "159.00 USD", quantity: 7, images: 3, variants: [] },
  ]);
});

/** A sheet whose variant rows name their parent's SKU, a variant row before its parent too. */
const PARENT_SKU_SHEET = [
  "sku,parent_sku,title,price,quantity,image,color,size",
  "LAMP,,Desk Lamp,40.00,,https://cdn.example.com/lamp.jpg,,",
  "LAMP-BRS,LAMP,Desk Lamp Brass,42.50,3,https://cdn.example.com/lamp-brass.jpg,Brass,",
  "LAMP-BLK,LAMP,Desk Lamp Black,40.00,7,https://cdn.example.com/lamp-black.jpg,Black,",
  "SOCK-M,SOCK,Wool Socks M,9.00,10,,Grey,M",
  "SOCK,,Wool Socks,9.00,,https://cdn.example.com/socks.jpg,,",
  "SOCK-L,SOCK,Wool Socks L,9.50,4,,Grey,L",
  "VASE,,Glass Vase,25.00,6,https://cdn.example.com/vase.jpg,Clear,",
].join("\n");

test("a sheet whose variant rows name their parent in parent_sku: one product per parent", async () => {
  const got = await importThrough(Buffer.from(PARENT_SKU_SHEET), "catalog.csv", {
    currency: "EUR",
  });
  expect(got.ready.counts).toMatchObject({ create: 3, error: 0 });
  expect(got.stored).toMatchObject({ status: "stored", result: { created: 3 } });
  expectBoth(got, [
    {
      sku: "LAMP",
      price: "40.00 EUR",
      quantity: 10,
      images: 1,
      variants: [
        ["LAMP-BRS", { color: "Brass" }, "42.50 EUR", 3],
        ["LAMP-BLK", { color: "Black" }, "40.00 EUR", 7],
      ],
    },
    {
      sku: "SOCK",
      price: "9.00 EUR",
      quantity: 14,
      images: 1,
      variants: [
        ["SOCK-M", { color: "Grey", size: "M" }, "9.00 EUR", 10],
        ["SOCK-L", { color: "Grey", size: "L" }, "9.50 EUR", 4],
      ],
    },
    { sku: "VASE", price: "25.00 EUR", quantity: 6, images: 1, variants: [] },
  ]);
  expect(got.product("LAMP").variants.map((v) => v.image)).toEqual([
    "https://cdn.example.com/lamp-brass.jpg",
    "https://cdn.example.com/lamp-black.jpg",
  ]);
  expect(got.product("VASE").attributes).toMatchObject({ color: "Clear" });
});
