import { createApiKey, revokeApiKey } from "@catalog/db";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import type { HistoryEntry, IngestResult, List } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let t: TestOrg;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "extension");
});
afterAll(() => gw.close());

const page = `<html><head><meta property="og:title" content="Trail Runner 2"><meta property="og:image" content="/shoe.jpg">
<script type="application/ld+json">{"@type":"Product","name":"Trail Runner 2","sku":"TR-2","offers":{"price":"89.00","priceCurrency":"USD"}}</script>
</head><body><h1>Trail Runner 2</h1></body></html>`;

const ingest = (payload: object, key = t.apiKey) =>
  gw.app.inject({
    method: "POST",
    url: "/api/extension/ingest",
    headers: { "x-service-api-key": key },
    payload,
  });

test("the page the browser saw becomes a product in the key's org; sending it again updates it", async () => {
  const first = await ingest({ url: "https://shoes.example/trail-runner-2", html: page });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toMatchObject({
    action: "created",
    product: {
      title: "Trail Runner 2",
      sku: "TR-2",
      price: { amount: "89.00", currency: "USD" },
      sourceUrl: "https://shoes.example/trail-runner-2",
      source: "extension",
    },
  });
  const again = await ingest({
    url: "https://shoes.example/trail-runner-2",
    html: page,
    product: { brand: "Peak" },
  });
  const { id } = first.json<IngestResult>().product;
  expect(again.json()).toMatchObject({
    action: "updated",
    product: { id, brand: "Peak", version: 2 },
  });
  const row = await gw.db.product.findUniqueOrThrow({ where: { id } });
  expect(row.orgId).toBe(t.org.id);
  expect(row.provenance).toMatchObject({ brand: { source: "extension", method: "product.brand" } });

  const cookie = await login(gw.app, t.member.email, t.member.password);
  const history = (
    await gw.app.inject({
      method: "GET",
      url: `/api/products/${row.id}/history`,
      headers: { cookie },
    })
  ).json<List<HistoryEntry>>();
  expect(history.items[0]).toMatchObject({
    action: "imported",
    actor: { type: "apiKey" },
    changes: { brand: { from: null, to: "Peak" } },
  });
});

test("fields alone, without HTML, are enough when they include a title", async () => {
  const res = await ingest({
    url: "https://shoes.example/sandal",
    product: { title: "Sandal", sku: "SD-1", price: { amount: "20.00", currency: "EUR" } },
  });
  expect(res.json()).toMatchObject({
    action: "created",
    product: { title: "Sandal", sku: "SD-1" },
  });
});

test.each([
  [{ html: page }, /"url" is required/],
  [{ url: "https://shoes.example/x" }, /"html", "product"/],
  [
    { url: "https://shoes.example/x", html: "<html><body><p>hello</p></body></html>" },
    /no product title/,
  ],
  [{ url: "javascript:alert(1)", html: page }, /"url"/],
  [{ url: "https://shoes.example/x", product: { title: 5 } }, /"product.title"/],
])("bad input %j is 422", async (payload, message) => {
  const res = await ingest(payload);
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(message);
});

test("a revoked key is 401 and stores nothing", async () => {
  const key = await createApiKey(gw.db, t.org.id, "revoked");
  await revokeApiKey(gw.db, t.org.id, key.id);
  const before = await gw.db.product.count({ where: { orgId: t.org.id } });
  const res = await ingest(
    { url: "https://shoes.example/boot", product: { title: "Boot" } },
    key.key,
  );
  expect(res.statusCode).toBe(401);
  expect(await gw.db.product.count({ where: { orgId: t.org.id } })).toBe(before);
});

test("the extension's stock is stored on the product and its variants, and the availability follows it", async () => {
  const url = "https://shoes.example/stock-runner";
  const variant = (sku: string, quantity: number) => ({
    sku,
    title: sku,
    price: null,
    options: { Size: sku },
    gtin: null,
    availability: null,
    image: null,
    quantity,
  });
  const first = await ingest({
    url,
    product: {
      title: "Stock Runner",
      sku: "SR-1",
      quantity: 6,
      variants: [variant("42", 6), variant("43", 0)],
    },
  });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toMatchObject({
    action: "created",
    product: {
      quantity: 6,
      availability: "InStock",
      variants: [
        { sku: "42", quantity: 6, availability: "InStock" },
        { sku: "43", quantity: 0, availability: "OutOfStock" },
      ],
    },
  });
  const row = await gw.db.product.findUniqueOrThrow({
    where: { id: first.json<IngestResult>().product.id },
  });
  expect(row.provenance).toMatchObject({
    quantity: { source: "extension", method: "product.quantity" },
  });

  const soldOut = await ingest({
    url,
    product: { title: "Stock Runner", sku: "SR-1", quantity: 0 },
  });
  expect(soldOut.json()).toMatchObject({
    action: "updated",
    product: { quantity: 0, availability: "OutOfStock" },
  });
});

test.each([-1, 2.5, "7"])(
  "a stock of %j from the extension is 422 naming the field",
  async (quantity) => {
    const res = await ingest({
      url: "https://shoes.example/bad-stock",
      product: { title: "Bad stock", quantity },
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/"product\.quantity"/);
  },
);
