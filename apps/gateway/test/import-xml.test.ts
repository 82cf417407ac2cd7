import { createTestOrg, type TestOrg } from "@catalog/testing";
import type { Import, List } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { documentUpload } from "./multipart.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway({ LOCAL_INGEST: "true", DOCUMENT_MAX_BYTES: "400000" });
  t = await createTestOrg(gw.db, "imports-xml");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const upload = (file: string, filename: string, fields: Record<string, string> = {}) => {
  const body = documentUpload(file, filename, fields, "application/xml");
  return gw.app.inject({
    method: "POST",
    url: "/api/imports",
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
};
const get = (url: string) => gw.app.inject({ method: "GET", url, headers: { cookie } });
const post = (url: string, payload: object) =>
  gw.app.inject({ method: "POST", url, headers: { cookie }, payload });
const imports = async () => (await get("/api/imports")).json<List<Import>>().total;

async function settle(id: string, status: Import["status"]): Promise<Import> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const body = (await get(`/api/imports/${id}`)).json<Import>();
    if (body.status !== status) return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function previewAndStore(
  file: string,
  filename: string,
  fields: Record<string, string> = {},
) {
  const res = await upload(file, filename, fields);
  expect(res.statusCode).toBe(202);
  const ready = await settle(res.json<Import>().id, "previewing");
  expect(ready).toMatchObject({ status: "ready", error: null });
  expect((await post(`/api/imports/${ready.id}/store`, {})).statusCode).toBe(202);
  return { ready, stored: await settle(ready.id, "storing") };
}

/** After Google's RSS 2.0 example: the g: namespace, two currencies, a sale price, quantity. */
const GOOGLE_RSS = `<?xml version="1.0"?>
<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0">
<channel>
<title>Example - Online Store</title>
<link>https://www.example.com</link>
<item>
<g:id>XML-TV-1</g:id>
<g:title>LED TV 22"</g:title>
<g:link>https://www.example.com/tv/1.html</g:link>
<g:image_link>https://img.test/tv-1.png</g:image_link>
<g:additional_image_link>https://img.test/tv-1-side.png</g:additional_image_link>
<g:availability>in_stock</g:availability>
<g:quantity>12</g:quantity>
<g:price>159.00 USD</g:price>
<g:brand>LG</g:brand>
</item>
<item>
<title>Box set</title>
<link>https://www.example.com/dvd/2.html</link>
<g:id>XML-DVD-2</g:id>
<g:price>11.99 GBP</g:price>
<g:sale_price>9.99 GBP</g:sale_price>
<g:availability>out_of_stock</g:availability>
</item>
<item>
<g:id>XML-PANTS-S</g:id><g:title>Capris - S</g:title><g:price>69.00 USD</g:price>
<g:item_group_id>XML-PANTS</g:item_group_id><g:size>S</g:size><g:quantity>2</g:quantity>
</item>
<item>
<g:id>XML-PANTS-M</g:id><g:title>Capris - M</g:title><g:price>72.00 USD</g:price>
<g:item_group_id>XML-PANTS</g:item_group_id><g:size>M</g:size><g:quantity>3</g:quantity>
</item>
</channel>
</rss>`;

/** After WordPress's WXR 1.2 layout: a variable product and its two variations. */
const meta = (key: string, value: string) =>
  `<wp:postmeta><wp:meta_key><![CDATA[${key}]]></wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`;
const WXR = `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<item><title>XML Hoodie</title><wp:post_id>10</wp:post_id><wp:post_parent>0</wp:post_parent>
<wp:post_type><![CDATA[product]]></wp:post_type><wp:status>publish</wp:status>
<category domain="product_type" nicename="variable"><![CDATA[variable]]></category>
${meta("_sku", "XML-HOODIE")}${meta("_price", "45")}${meta("_stock_status", "instock")}</item>
<item><title>XML Hoodie - Blue</title><wp:post_id>11</wp:post_id><wp:post_parent>10</wp:post_parent>
<wp:post_type><![CDATA[product_variation]]></wp:post_type>
${meta("_sku", "XML-HOODIE-BLUE")}${meta("_regular_price", "45")}${meta("_sale_price", "42")}${meta("attribute_pa_color", "blue")}</item>
<item><title>XML Hoodie - Green</title><wp:post_id>12</wp:post_id><wp:post_parent>10</wp:post_parent>
<wp:post_type><![CDATA[product_variation]]></wp:post_type>
${meta("_sku", "XML-HOODIE-GREEN")}${meta("_regular_price", "45")}${meta("attribute_pa_color", "green")}</item>
</channel>
</rss>`;

test("a Google Merchant RSS feed is previewed and stored: products, variants, prices with their currency, stock, images", async () => {
  const { ready, stored } = await previewAndStore(GOOGLE_RSS, "feed.xml");
  expect(ready.counts).toMatchObject({ create: 3, error: 0 });
  expect(stored).toMatchObject({ status: "stored", result: { created: 3 } });
  const tv = await gw.db.product.findFirstOrThrow({ where: { orgId: t.org.id, sku: "XML-TV-1" } });
  expect([tv.title, tv.priceAmount?.toString(), tv.priceCurrency, tv.quantity]).toEqual([
    'LED TV 22"',
    "159",
    "USD",
    12,
  ]);
  expect(tv.images).toEqual(["https://img.test/tv-1.png", "https://img.test/tv-1-side.png"]);
  const dvd = await gw.db.product.findFirstOrThrow({
    where: { orgId: t.org.id, sku: "XML-DVD-2" },
  });
  expect([dvd.priceAmount?.toString(), dvd.priceCurrency, dvd.availability]).toEqual([
    "9.99",
    "GBP",
    "OutOfStock",
  ]);
  const pants = await gw.db.product.findFirstOrThrow({
    where: { orgId: t.org.id, sku: "XML-PANTS" },
  });
  expect(pants.quantity).toBe(5);
  expect(pants.variants).toEqual([
    expect.objectContaining({
      sku: "XML-PANTS-S",
      price: { amount: "69.00", currency: "USD" },
      options: { size: "S" },
      quantity: 2,
    }),
    expect.objectContaining({
      sku: "XML-PANTS-M",
      price: { amount: "72.00", currency: "USD" },
      options: { size: "M" },
      quantity: 3,
    }),
  ]);
});

test("a WooCommerce WordPress export is stored with its variations as variants", async () => {
  const { stored } = await previewAndStore(WXR, "shop.WordPress.2026-11-27.xml", {
    currency: "EUR",
  });
  expect(stored).toMatchObject({ status: "stored", result: { created: 1 } });
  const hoodie = await gw.db.product.findFirstOrThrow({
    where: { orgId: t.org.id, sku: "XML-HOODIE" },
  });
  expect(hoodie.variants).toEqual([
    expect.objectContaining({
      sku: "XML-HOODIE-BLUE",
      price: { amount: "42.00", currency: "EUR" },
      options: { Color: "blue" },
    }),
    expect.objectContaining({
      sku: "XML-HOODIE-GREEN",
      price: { amount: "45.00", currency: "EUR" },
      options: { Color: "green" },
    }),
  ]);
});

test("an XXE file is a 422 naming the DOCTYPE, and no import is created", async () => {
  const before = await imports();
  const products = await gw.db.product.count({ where: { orgId: t.org.id } });
  const res = await upload(
    `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` +
      `<rss><channel><item><title>&xxe;</title></item></channel></rss>`,
    "feed.xml",
  );
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/declares entities or other definitions in its DOCTYPE/);
  expect(res.body).not.toContain("root:");
  expect(await imports()).toBe(before);
  expect(await gw.db.product.count({ where: { orgId: t.org.id } })).toBe(products);
});

test("an HTML page is still a 415", async () => {
  const res = await upload("<!DOCTYPE html><html><body>shop</body></html>", "page.xml");
  expect(res.statusCode).toBe(415);
  expect(errorOf(res)).toMatch(
    /HTML page, not a product list; upload a CSV, TSV, XLSX, JSON, NDJSON or XML file/,
  );
});
