import { existsSync, readFileSync } from "node:fs";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { documentUpload, multipart } from "./multipart.js";

const corpus = new URL("../../../../shared/corpus/", import.meta.url);
const shopifyTemplate = new URL("documents/shopify/product_template_2023plus.csv", corpus);

let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway({ DOCUMENT_MAX_BYTES: "200000" });
  t = await createTestOrg(gw.db, "documents");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const upload = (file: string | Buffer, filename: string, fields: Record<string, string> = {}, type = "text/csv") => {
  const body = documentUpload(file, filename, fields, type);
  return gw.app.inject({ method: "POST", url: "/api/import/document", headers: { cookie, ...body.headers }, payload: body.payload });
};
const count = () => gw.db.product.count({ where: { orgId: t.org.id } });

const CSV = `Title,SKU,Price,Currency,Brand,Image
Linen Shirt,DOC-SHIRT,49.00,EUR,Acme,https://img.test/shirt.jpg
,DOC-NOTITLE,10.00,EUR,Acme,
"Wool ""Cozy"" Scarf",DOC-SCARF,"19.90",EUR,Acme,https://img.test/scarf.jpg
`;

test("a preview answers an outcome per row, with row numbers, and stores nothing", async () => {
  const res = await upload(CSV, "products.csv");
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.persisted).toBe(false);
  expect(body.items).toHaveLength(3);
  expect(body.items[0]).toMatchObject({ row: 2, ok: true, action: "preview", wouldBe: "created", product: { title: "Linen Shirt", sku: "DOC-SHIRT", price: { amount: "49.00", currency: "EUR" } } });
  expect(body.items[1]).toMatchObject({ row: 3, ok: false });
  expect(body.items[1].error).toMatch(/title/i);
  expect(body.items[2]).toMatchObject({ row: 4, ok: true, product: { title: 'Wool "Cozy" Scarf' } });
  expect(body.summary).toEqual({ requested: 3, succeeded: 2, failed: 1, created: 2, updated: 0 });
  expect(await count()).toBe(0);
});

test("persist stores the rows; uploading again updates instead of duplicating", async () => {
  const first = (await upload(CSV, "products.csv", { persist: "true" })).json();
  expect(first.summary).toMatchObject({ succeeded: 2, created: 2 });
  expect(await count()).toBe(2);
  const second = (await upload(CSV.replace("49.00", "52.00"), "products.csv", { persist: "true" })).json();
  expect(second.summary).toMatchObject({ created: 0, updated: 2 });
  expect(second.items[0]).toMatchObject({ action: "updated", changes: { price: { from: { amount: "49.00", currency: "EUR" }, to: { amount: "52.00", currency: "EUR" } } } });
  expect(await count()).toBe(2);
});

(existsSync(shopifyTemplate) ? test : test.skip)("Shopify's own product CSV groups rows by Handle into products with variants", async () => {
  const res = await upload(readFileSync(shopifyTemplate), "shopify.csv", { currency: "USD" });
  expect(res.statusCode).toBe(200);
  const products = res.json().items.filter((i: { ok: boolean }) => i.ok);
  expect(products.length).toBeGreaterThan(0);
  expect(products.some((p: { product: { variants: unknown[] } }) => p.product.variants.length > 1)).toBe(true);
  expect(products[0].product.price?.currency ?? "USD").toBe("USD");
});

test.each([
  ["an empty file", "", "empty.csv", "text/csv", 422],
  ["a header without rows", "Title,SKU,Price\n", "header.csv", "text/csv", 422],
  ["a PNG", Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), "photo.png", "image/png", 415],
  ["a file over the limit", "Title,SKU\n" + "A product,SKU\n".repeat(20_000), "big.csv", "text/csv", 413],
  ["broken JSON", '[{"title": "A"}, {"title": ', "broken.json", "application/json", 422],
])("%s is refused with { error } and nothing stored", async (_name, file, filename, type, status) => {
  const before = await count();
  const res = await upload(file, filename, { persist: "true" }, type);
  expect(res.statusCode).toBe(status);
  errorOf(res);
  expect(await count()).toBe(before);
});

test("a JSON body instead of multipart is 415, and a missing file part is 422", async () => {
  const json = await gw.app.inject({ method: "POST", url: "/api/import/document", headers: { cookie }, payload: { file: "x" } });
  expect(json.statusCode).toBe(415);
  const noFile = multipart([{ name: "persist", value: "true" }]);
  const res = await gw.app.inject({ method: "POST", url: "/api/import/document", headers: { cookie, ...noFile.headers }, payload: noFile.payload });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/"file"/);
});

test("a bad persist or currency part is 422", async () => {
  expect((await upload(CSV, "p.csv", { persist: "maybe" })).statusCode).toBe(422);
  expect((await upload(CSV, "p.csv", { currency: "euros" })).statusCode).toBe(422);
});
