// Stock on a product and its variants: edited through PATCH, refused when it is not a count,
// recorded in the history like any edit, and the availability following it.
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import type { HistoryEntry, List, Product } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "stock");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const get = (url: string) => gw.app.inject({ method: "GET", url, headers: { cookie } });
const patch = (url: string, payload: object) =>
  gw.app.inject({ method: "PATCH", url, headers: { cookie }, payload });

const variant = (sku: string, quantity?: number | null) => ({
  sku,
  title: sku,
  price: null,
  options: { Size: sku },
  gtin: null,
  availability: null,
  image: null,
  ...(quantity === undefined ? {} : { quantity }),
});

test("a new product's stock is unknown until someone sets it", async () => {
  const p = await makeProduct(gw.db, t.org.id, { title: "Kettle" });
  const res = await get(`/api/products/${p.id}`);
  expect(res.json()).toMatchObject({ quantity: null, availability: null });
});

test("setting the stock stores it, makes the product in stock and writes a history entry", async () => {
  const p = await makeProduct(gw.db, t.org.id, { title: "Teapot", availability: "OutOfStock" });
  const res = await patch(`/api/products/${p.id}`, { quantity: 12 });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ quantity: 12, availability: "InStock", version: 2 });
  expect((await get(`/api/products/${p.id}`)).json()).toMatchObject({ quantity: 12 });

  const history = (await get(`/api/products/${p.id}/history`)).json<List<HistoryEntry>>();
  expect(history.items[0]).toMatchObject({
    action: "updated",
    actor: { type: "user", id: t.member.id },
    changes: {
      quantity: { from: null, to: 12 },
      availability: { from: "OutOfStock", to: "InStock" },
    },
  });
});

test("selling out (0) makes it out of stock; a pre-order with stock stays a pre-order", async () => {
  const p = await makeProduct(gw.db, t.org.id, { title: "Cup", availability: "PreOrder" });
  const stocked = await patch(`/api/products/${p.id}`, { quantity: 4 });
  expect(stocked.json()).toMatchObject({ quantity: 4, availability: "PreOrder" });
  const sold = await patch(`/api/products/${p.id}`, { quantity: 0 });
  expect(sold.json()).toMatchObject({ quantity: 0, availability: "OutOfStock" });
  // Saying "in stock" while the count is 0 does not make it so.
  const claimed = await patch(`/api/products/${p.id}`, { availability: "InStock" });
  expect(claimed.json()).toMatchObject({ quantity: 0, availability: "OutOfStock" });
  // Unknown again: the availability is the editor's word.
  const unknown = await patch(`/api/products/${p.id}`, { quantity: null, availability: "InStock" });
  expect(unknown.json()).toMatchObject({ quantity: null, availability: "InStock" });
});

test("each variant carries its own stock, and its availability follows it", async () => {
  const p = await makeProduct(gw.db, t.org.id, { title: "Shirt" });
  // Variants stored before stock was kept (no quantity) answer it as unknown.
  await gw.db.product.update({
    where: { id: p.id },
    data: { variants: [variant("S"), variant("M")] },
  });
  expect((await get(`/api/products/${p.id}`)).json<Product>().variants).toEqual([
    { ...variant("S"), quantity: null },
    { ...variant("M"), quantity: null },
  ]);
  const res = await patch(`/api/products/${p.id}`, {
    variants: [variant("S", 0), variant("M", 3)],
  });
  expect(res.statusCode).toBe(200);
  expect(res.json<Product>().variants).toEqual([
    { ...variant("S"), quantity: 0, availability: "OutOfStock" },
    { ...variant("M"), quantity: 3, availability: "InStock" },
  ]);
  const history = (await get(`/api/products/${p.id}/history`)).json<List<HistoryEntry>>();
  expect(Object.keys(history.items[0]!.changes)).toEqual(["variants"]);
});

test.each([
  [{ quantity: -1 }, /"quantity"/],
  [{ quantity: 1.5 }, /"quantity"/],
  [{ quantity: 2 ** 31 }, /"quantity"/],
  [{ quantity: "7" }, /"quantity"/],
  [{ variants: [variant("S", -2)] }, /"variants.0.quantity"/],
  [{ variants: [variant("S", 0.5)] }, /"variants.0.quantity"/],
])(
  "a stock edit %j that is not a count is 422 naming the field and changes nothing",
  async (body, message) => {
    const p = await makeProduct(gw.db, t.org.id, { title: "Bowl" });
    const res = await patch(`/api/products/${p.id}`, body);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(message);
    expect((await get(`/api/products/${p.id}`)).json()).toMatchObject({
      quantity: null,
      version: 1,
    });
  },
);

test("the largest count PostgreSQL stores is accepted", async () => {
  const p = await makeProduct(gw.db, t.org.id, { title: "Screws" });
  const res = await patch(`/api/products/${p.id}`, { quantity: 2 ** 31 - 1 });
  expect(res.json()).toMatchObject({ quantity: 2 ** 31 - 1 });
});

test("the catalog list shows each product's stock", async () => {
  const p = await makeProduct(gw.db, t.org.id, { title: "Stock list lamp" });
  await patch(`/api/products/${p.id}`, { quantity: 9 });
  const res = await get(`/api/products?q=${encodeURIComponent("Stock list lamp")}`);
  expect(res.json<List<Product>>().items).toMatchObject([{ id: p.id, quantity: 9 }]);
});

test("the OpenAPI document states the stock rule on the product's quantity", async () => {
  const doc = await gw.app.inject({ method: "GET", url: "/docs/json" });
  expect(doc.body).toContain("Availability follows a known quantity");
});
