import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import type { ExtensionPreview, IngestResult } from "../src/api-types.js";
import { storableUrl } from "../src/importing/index.js";
import { startGateway, type Gateway } from "./harness.js";

// A page is read at any length and in any shape its markup has; the catalog's fields, and the
// answers that carry them, have the product schema's bounds. A value read from a page outside
// them (a title over 500 characters, a price of more than 15 digits or 4 decimals, an image URL
// the "uri" format refuses or over 2048 characters, more than 100 images or 1000 variants, a
// description whose stored form is over 100,000 characters; a listing item's price of more than
// 15 digits or 4 decimals) made the extension's route answer 500: the answer failed its schema,
// or PostgreSQL refused the price (numeric(19, 4)). The page read is fitted to the bounds
// instead, and both the preview and the save answer 200.

let gw: Gateway;
let t: TestOrg;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "extension-values");
});
afterAll(() => gw.close());

const pageWith = (product: object, type = "Product") =>
  `<html><head><script type="application/ld+json">${JSON.stringify({
    "@context": "https://schema.org",
    "@type": type,
    name: "Enamel mug",
    ...product,
  })}</script></head><body><h1>Enamel mug</h1></body></html>`;

let pages = 0;
/** Previews the page, then saves it; both answer 200. Returns the saved product. */
async function previewThenSave(html: string) {
  const url = `https://mugs.example/p/${++pages}`;
  const send = (persist: boolean) =>
    gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { "x-service-api-key": t.apiKey },
      payload: { url, html, persist },
    });
  const preview = await send(false);
  expect(preview.statusCode).toBe(200);
  const shown = preview.json<ExtensionPreview>();
  expect(shown.page).toBe("product");
  const saved = await send(true);
  expect(saved.statusCode).toBe(200);
  return saved.json<IngestResult>().product;
}

test("a title longer than 500 characters is cut to 500", async () => {
  const product = await previewThenSave(pageWith({ name: `Enamel mug ${"very ".repeat(200)}` }));
  expect(product.title).toHaveLength(500);
  expect(product.title.startsWith("Enamel mug very very")).toBe(true);
});

test.each([
  ["more than 15 digits", "1234567890123456789"],
  ["more than 4 decimals", "0.000001"],
])("a price with %s, which the catalog cannot hold, is left out", async (_what, price) => {
  const product = await previewThenSave(
    pageWith({ sku: "MUG-1", offers: { "@type": "Offer", price, priceCurrency: "EUR" } }),
  );
  expect(product).toMatchObject({ price: null, sku: "MUG-1" });
});

test("an image URL with characters a URI may not hold raw is kept, percent-encoded; one over 2048 characters is left out", async () => {
  const product = await previewThenSave(
    pageWith({
      image: [
        "https://cdn.mugs.example/img/mug front|large^1.jpg?v={2}",
        `https://cdn.mugs.example/img/${"x".repeat(2100)}.jpg`,
      ],
    }),
  );
  expect(product.images).toEqual([
    "https://cdn.mugs.example/img/mug%20front%7Clarge%5E1.jpg?v=%7B2%7D",
  ]);
});

test("of more than 100 images, the first 100 are kept", async () => {
  const image = Array.from({ length: 150 }, (_, i) => `https://cdn.mugs.example/img/${i}.jpg`);
  const product = await previewThenSave(pageWith({ image }));
  expect(product.images).toEqual(image.slice(0, 100));
});

test("of more than 1000 variants, the first 1000 are kept", async () => {
  const hasVariant = Array.from({ length: 1100 }, (_, i) => ({
    "@type": "Product",
    name: `Enamel mug ${i}`,
    sku: `MUG-V${i}`,
    offers: { "@type": "Offer", price: "9.00", priceCurrency: "EUR" },
  }));
  const product = await previewThenSave(pageWith({ hasVariant }, "ProductGroup"));
  expect(product.variants).toHaveLength(1000);
  expect(product.variants[999]).toMatchObject({ sku: "MUG-V999" });
});

test("a description whose stored form is over 100,000 characters is cut to fit", async () => {
  // Plain text is stored escaped: each "&" takes 5 characters.
  const product = await previewThenSave(
    pageWith({ description: "Mugs & cups & saucers. ".repeat(5000) }),
  );
  expect(product.description!.length).toBeLessThanOrEqual(100_000);
  expect(product.description!.startsWith("<p>Mugs &amp; cups")).toBe(true);
});

test("a listing's item price the catalog cannot hold is shown as none", async () => {
  const itemListElement = ["1234567890123456789", "0.000001", "12.50"].map((price, i) => ({
    "@type": "ListItem",
    position: i + 1,
    item: {
      "@type": "Product",
      name: `Enamel mug ${i}`,
      url: `https://mugs.example/p/list-${i}`,
      offers: { "@type": "Offer", price, priceCurrency: "EUR" },
    },
  }));
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/extension/ingest",
    headers: { "x-service-api-key": t.apiKey },
    payload: {
      url: "https://mugs.example/c/mugs",
      html: `<html><head><script type="application/ld+json">${JSON.stringify({
        "@context": "https://schema.org",
        "@type": "ItemList",
        itemListElement,
      })}</script></head><body></body></html>`,
      persist: false,
    },
  });
  expect(res.statusCode).toBe(200);
  const preview = res.json<Extract<ExtensionPreview, { page: "listing" }>>();
  expect(preview.listing.items.map((item) => item.price)).toEqual([
    null,
    null,
    { amount: "12.50", currency: "EUR" },
  ]);
});

describe("storableUrl", () => {
  const ajv = new Ajv();
  addFormats.default(ajv);
  const isUri = ajv.compile({ type: "string", format: "uri" });

  test.each([
    "https://a.example/x y|z^[1]{2}`.jpg",
    "https://a.example/p?q=a|b^c[d]{e}\\f",
    "https://a.example/p#frag#ment|x",
    "https://a.example/%zz/100%.jpg",
    "https://bücher.example/ä.jpg",
    "https://a.example:8443/p",
  ])("%s becomes a URI the schema's format accepts", (url) => {
    const stored = storableUrl(url);
    expect(stored).not.toBeNull();
    expect(isUri(stored)).toBe(true);
  });

  test.each(["ftp://a.example/x.jpg", "https://user:pw@a.example/x.jpg", "not a url", ""])(
    "%s is none",
    (url) => expect(storableUrl(url)).toBeNull(),
  );
});
