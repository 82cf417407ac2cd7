// Stock from documents, end to end: the platforms' stock columns are stored on products and
// variants, a preview shows the stock change (and the availability that follows it), a document
// without a stock column forgets nothing, and a cell that is not a count fails only its row.
import { createTestOrg, type TestOrg } from "@catalog/testing";
import type { DocumentImportResult, HistoryEntry, List, Product } from "../src/api-types.js";
import { login, startGateway, type Gateway } from "./harness.js";
import { failed, imported } from "./import-items.js";
import { documentUpload } from "./multipart.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "document-stock");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const upload = async (file: string, persist: boolean, filename = "stock.csv") => {
  const body = documentUpload(
    file,
    filename,
    { currency: "EUR", ...(persist ? { persist: "true" } : {}) },
    filename.endsWith(".json") ? "application/json" : "text/csv",
  );
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/import/document",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json<DocumentImportResult>();
};
const get = <T>(url: string) =>
  gw.app.inject({ method: "GET", url, headers: { cookie } }).then((r) => r.json<T>());

test("Shopify's Variant Inventory Qty is stored on each variant, the product holding their total", async () => {
  const csv = [
    "Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Price,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy",
    "stock-tee,Stock Tee,Size,S,STK-TEE-S,10.00,shopify,5,deny",
    "stock-tee,,,M,STK-TEE-M,10.00,shopify,0,deny",
  ].join("\n");
  const result = await upload(csv, true);
  const { product } = imported(result.items[0]);
  const stored = await get<Product>(`/api/products/${product.id}`);
  expect(stored).toMatchObject({ quantity: 5, availability: "InStock" });
  expect(stored.variants).toMatchObject([
    { sku: "STK-TEE-S", quantity: 5, availability: "InStock" },
    { sku: "STK-TEE-M", quantity: 0, availability: "OutOfStock" },
  ]);
});

test("WooCommerce's Stock is stored; a row whose Stock is not a count fails alone", async () => {
  const csv = [
    "ID,Type,SKU,Name,Parent,Regular price,In stock?,Stock",
    "1,simple,STK-WOO-1,Woo Mug,,5,1,8",
    "2,simple,STK-WOO-2,Woo Bowl,,6,1,2.5",
    "3,simple,STK-WOO-3,Woo Plate,,4,1,0",
  ].join("\n");
  const result = await upload(csv, true);
  expect(result.summary).toMatchObject({ succeeded: 2, failed: 1, created: 2 });
  expect(imported(result.items[0]).product).toMatchObject({
    quantity: 8,
    availability: "InStock",
  });
  expect(failed(result.items[1]).error).toMatch(
    /row 3: cannot read the stock "2\.5" \(column Stock\)/,
  );
  expect(imported(result.items[2]).product).toMatchObject({
    quantity: 0,
    availability: "OutOfStock",
  });
});

test("a re-import's preview shows the stock change and the availability it brings; a file without stock keeps it", async () => {
  const first = await upload(
    "Title,SKU,Price,Currency,Stock\nStock Lamp,STK-LAMP,20.00,EUR,4\n",
    true,
  );
  const { id } = imported(first.items[0]).product;

  const preview = await upload(
    "Title,SKU,Price,Currency,Stock\nStock Lamp,STK-LAMP,20.00,EUR,0\n",
    false,
  );
  expect(imported(preview.items[0])).toMatchObject({
    action: "preview",
    wouldBe: "updated",
    changes: {
      quantity: { from: 4, to: 0 },
      availability: { from: "InStock", to: "OutOfStock" },
    },
  });
  expect(await get<Product>(`/api/products/${id}`)).toMatchObject({ quantity: 4 });

  await upload("Title,SKU,Price,Currency,Stock\nStock Lamp,STK-LAMP,20.00,EUR,0\n", true);
  const history = await get<List<HistoryEntry>>(`/api/products/${id}/history`);
  expect(history.items[0]).toMatchObject({
    action: "imported",
    changes: { quantity: { from: 4, to: 0 } },
  });

  // A price list without a stock column changes the price and leaves the stock alone.
  const prices = await upload("Title,SKU,Price,Currency\nStock Lamp,STK-LAMP,22.00,EUR\n", true);
  expect(Object.keys(imported(prices.items[0]).changes ?? {})).toEqual(["price"]);
  expect(await get<Product>(`/api/products/${id}`)).toMatchObject({
    quantity: 0,
    availability: "OutOfStock",
  });
});

test("variants keep their stock when a re-import's variants carry none", async () => {
  const sock = (quantities: (number | undefined)[]) =>
    JSON.stringify([
      {
        title: "Stock Sock",
        sku: "STK-SOCK",
        variants: ["S", "M"].map((size, i) => ({
          sku: `STK-SOCK-${size}`,
          option1: size,
          price: "4.00",
          ...(quantities[i] === undefined ? {} : { quantity: quantities[i] }),
        })),
      },
    ]);
  const first = await upload(sock([3, 0]), true, "socks.json");
  const { id } = imported(first.items[0]).product;
  const again = await upload(sock([undefined, undefined]), true, "socks.json");
  expect(imported(again.items[0]).changes).toEqual({});
  expect((await get<Product>(`/api/products/${id}`)).variants).toMatchObject([
    { sku: "STK-SOCK-S", quantity: 3, availability: "InStock" },
    { sku: "STK-SOCK-M", quantity: 0, availability: "OutOfStock" },
  ]);
});
