import { createApiKey, revokeApiKey } from "@catalog/db";
import type { LightMyRequestResponse } from "fastify";
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import type {
  ExtensionMe,
  ExtensionPreview,
  IngestResult,
  List,
  ProductListItem,
} from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { anyOf, objectContaining, stringMatching } from "@catalog/test-support/matchers";

let gw: Gateway;
let t: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "ext-preview");
  other = await createTestOrg(gw.db, "ext-preview-other");
});
afterAll(() => gw.close());

const productPage = (
  price: string,
  images = [
    "https://cdn.kiln.example/teapot-front.jpg",
    "https://cdn.kiln.example/teapot-side.jpg",
  ],
) =>
  `<!doctype html><html><head><title>Glazed teapot | Kiln</title><script type="application/ld+json">${JSON.stringify(
    {
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Glazed teapot",
      sku: "TEA-GLZ-1",
      image: images,
      brand: { "@type": "Brand", name: "Kiln & Co" },
      offers: {
        "@type": "Offer",
        price,
        priceCurrency: "EUR",
        availability: "https://schema.org/InStock",
      },
    },
  )}</script></head><body><h1>Glazed teapot</h1></body></html>`;
const URL_OF_PAGE = "https://kiln.example/products/glazed-teapot";

const ingest = (payload: object, key = t.apiKey) =>
  gw.app.inject({
    method: "POST",
    url: "/api/extension/ingest",
    headers: { "x-service-api-key": key },
    payload,
  });
const isPreviewOf = <P extends ExtensionPreview["page"]>(
  body: ExtensionPreview,
  page: P,
): body is Extract<ExtensionPreview, { page: P }> => body.page === page;
/** The answer's preview, which must be of a `page` page. */
function previewOf<P extends ExtensionPreview["page"]>(res: LightMyRequestResponse, page: P) {
  const body = res.json<ExtensionPreview>();
  if (!isPreviewOf(body, page)) throw new Error(`expected a ${page} page's preview: ${body.page}`);
  return body;
}
const writes = async (orgId = t.org.id) => [
  await gw.db.product.count({ where: { orgId } }),
  await gw.db.productHistory.count({ where: { orgId } }),
];

test("GET /api/extension/me names the org and key a pairing acts for; an unknown or revoked key is 401 with what to do", async () => {
  const me = await gw.app.inject({
    method: "GET",
    url: "/api/extension/me",
    headers: { "x-service-api-key": t.apiKey },
  });
  expect(me.statusCode).toBe(200);
  expect(me.json<ExtensionMe>()).toEqual({
    org: { id: t.org.id, name: t.org.name },
    key: { id: anyOf(String), name: anyOf(String), prefix: t.apiKey.split("_")[1] },
  });
  const revoked = await createApiKey(gw.db, t.org.id, "old laptop");
  await revokeApiKey(gw.db, t.org.id, revoked.id);
  for (const key of [revoked.key, "csk_unknown1_notakeyatall", ""]) {
    const res = await gw.app.inject({
      method: "GET",
      url: "/api/v1/extension/me",
      headers: { "x-service-api-key": key },
    });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res)).toMatch(
      /unknown or revoked API key .*creates one in the dashboard's Extension keys screen/,
    );
  }
});

test("the extension's routes answer any browser origin, so it needs no host permission for the service", async () => {
  for (const url of ["/api/extension/me", "/api/extension/imports", "/api/extension/ingest"]) {
    const res = await gw.app.inject({
      method: "OPTIONS",
      url,
      headers: {
        origin: "chrome-extension://abcdefghijklmnop",
        "access-control-request-method": url.endsWith("me") ? "GET" : "POST",
        "access-control-request-headers": "x-service-api-key,content-type",
      },
    });
    expect([url, res.statusCode, res.headers["access-control-allow-origin"]]).toEqual([
      url,
      204,
      "chrome-extension://abcdefghijklmnop",
    ]);
    expect(String(res.headers["access-control-allow-headers"]).toLowerCase()).toContain(
      "x-service-api-key",
    );
  }
});

test("a product page's preview says what saving would store and writes nothing; saved, it is unchanged; changed on the page, the diff", async () => {
  const before = await writes();
  const first = await ingest({ url: URL_OF_PAGE, html: productPage("42.00"), persist: false });
  expect(first.statusCode).toBe(200);
  expect(first.json<ExtensionPreview>()).toEqual({
    action: "preview",
    page: "product",
    wouldBe: "created",
    match: null,
    changes: objectContaining({ title: { from: null, to: "Glazed teapot" } }),
    product: objectContaining({
      title: "Glazed teapot",
      sku: "TEA-GLZ-1",
      brand: "Kiln & Co",
      availability: "InStock",
      price: { amount: "42.00", currency: "EUR" },
      images: [
        "https://cdn.kiln.example/teapot-front.jpg",
        "https://cdn.kiln.example/teapot-side.jpg",
      ],
      sourceUrl: URL_OF_PAGE,
    }),
  });
  expect(await writes()).toEqual(before);

  // Saved with the user's one correction and one image left out: the rest as the preview read it.
  const saved = await ingest({
    url: URL_OF_PAGE,
    html: productPage("42.00"),
    product: {
      title: "Glazed teapot, celadon",
      images: ["https://cdn.kiln.example/teapot-front.jpg"],
    },
  });
  expect(saved.json()).toMatchObject({
    action: "created",
    product: {
      title: "Glazed teapot, celadon",
      sku: "TEA-GLZ-1",
      brand: "Kiln & Co",
      price: { amount: "42.00", currency: "EUR" },
      images: ["https://cdn.kiln.example/teapot-front.jpg"],
      source: "extension",
    },
  });
  const row = await gw.db.product.findUniqueOrThrow({
    where: { id: saved.json<IngestResult>().product.id },
  });
  expect(row.provenance).toMatchObject({
    title: { source: "extension", method: "product.title" },
    sku: { source: "json-ld" },
    price: { source: "json-ld" },
  });

  // The same page again: in the catalog, with what differs (the title the user changed, the image
  // left out).
  const again = await ingest({ url: URL_OF_PAGE, html: productPage("42.00"), persist: false });
  expect(again.json()).toMatchObject({
    page: "product",
    wouldBe: "updated",
    match: { productId: row.id, title: "Glazed teapot, celadon", sku: "TEA-GLZ-1", by: "sku" },
    changes: {
      title: { from: "Glazed teapot, celadon", to: "Glazed teapot" },
      images: { from: ["https://cdn.kiln.example/teapot-front.jpg"] },
    },
  });
  // With the user's edits, nothing differs.
  const same = await ingest({
    url: URL_OF_PAGE,
    html: productPage("42.00", ["https://cdn.kiln.example/teapot-front.jpg"]),
    product: { title: "Glazed teapot, celadon" },
    persist: false,
  });
  expect(same.json()).toMatchObject({ page: "product", wouldBe: "unchanged", changes: {} });
  // The shop changed its price: the diff names it.
  const repriced = await ingest({
    url: URL_OF_PAGE,
    html: productPage("39.00", ["https://cdn.kiln.example/teapot-front.jpg"]),
    product: { title: "Glazed teapot, celadon" },
    persist: false,
  });
  expect(repriced.json()).toMatchObject({
    wouldBe: "updated",
    changes: {
      price: {
        from: { amount: "42.00", currency: "EUR" },
        to: { amount: "39.00", currency: "EUR" },
      },
    },
  });
  expect(Object.keys(previewOf(repriced, "product").changes)).toEqual(["price"]);
});

test("a new product may be saved without a field the page gives: null leaves it empty", async () => {
  const res = await ingest({
    url: "https://kiln.example/products/other-teapot",
    html: productPage("42.00").replaceAll("TEA-GLZ-1", "TEA-OTH-1"),
    product: { brand: null },
  });
  expect(res.json()).toMatchObject({
    action: "created",
    product: { sku: "TEA-OTH-1", brand: null },
  });
});

test("a category page's preview lists its products, marking those in the catalog", async () => {
  const card = (slug: string, name: string, price: string) =>
    `<li class="card"><a href="/products/${slug}"><img src="/img/${slug}.jpg" alt=""><h2>${name}</h2></a><span class="price">€${price}</span></li>`;
  const html = `<!doctype html><html><head><title>Teapots</title></head><body><nav><a href="/">Home</a><a href="/teapots">Teapots</a><a href="/cups">Cups</a></nav>
    <h1>Teapots</h1><ul>${card("glazed-teapot", "Glazed teapot", "42.00")}${card("iron-teapot", "Iron teapot", "65.00")}${card("glass-teapot", "Glass teapot", "29.00")}</ul></body></html>`;
  await makeProduct(gw.db, t.org.id, {
    title: "Iron teapot (ours)",
    sourceUrl: "https://kiln.example/products/iron-teapot",
  });
  // Another org's product from the same page is no concern of this key's.
  await makeProduct(gw.db, other.org.id, {
    title: "Glass teapot",
    sourceUrl: "https://kiln.example/products/glass-teapot",
  });
  const before = await writes();
  const res = await ingest({ url: "https://kiln.example/teapots", html, persist: false });
  expect(res.json()).toMatchObject({
    action: "preview",
    page: "listing",
    listing: { total: 3, truncated: false },
    message: stringMatching(/lists 3 products.*up to 50 at a time/),
  });
  const { listing } = previewOf(res, "listing");
  expect(listing.items.map((i) => [i.title, i.price?.amount, i.inCatalog?.title ?? null])).toEqual([
    ["Glazed teapot", "42.00", "Glazed teapot, celadon"],
    ["Iron teapot", "65.00", "Iron teapot (ours)"],
    ["Glass teapot", "29.00", null],
  ]);
  expect(listing.items[0]!.url).toBe(URL_OF_PAGE);
  expect(await writes()).toEqual(before);
});

test("a robot check is said to be one: previewed with what to do, refused when saving", async () => {
  const check = `<!doctype html><html><head><title>Just a moment...</title></head><body><div id="challenge-stage"></div><p>Checking your browser before accessing kiln.example.</p></body></html>`;
  const before = await writes();
  const preview = await ingest({ url: URL_OF_PAGE, html: check, persist: false });
  expect(preview.json<ExtensionPreview>()).toEqual({
    action: "preview",
    page: "blocked",
    message: stringMatching(
      /^This page is a robot check \(Cloudflare's check\).*pass the check in the page.*try again/,
    ),
  });
  const save = await ingest({ url: URL_OF_PAGE, html: check });
  expect(save.statusCode).toBe(422);
  expect(errorOf(save)).toMatch(/robot check/);
  expect(await writes()).toEqual(before);
});

test("a page with no product: the preview says so, and a save with a title typed by the user works", async () => {
  const html =
    "<!doctype html><html><head><title>Our story</title></head><body><h1>Our story</h1><p>Since 1987.</p></body></html>";
  const preview = await ingest({ url: "https://kiln.example/about", html, persist: false });
  expect(preview.json<ExtensionPreview>()).toEqual({
    action: "preview",
    page: "unknown",
    message: stringMatching(/doesn't look like a product page/),
  });
  const saved = await ingest({
    url: "https://kiln.example/about",
    html,
    product: { title: "Harbour vase", price: { amount: "65.00", currency: "EUR" } },
  });
  expect(saved.json()).toMatchObject({
    action: "created",
    product: {
      title: "Harbour vase",
      source: "extension",
      sourceUrl: "https://kiln.example/about",
    },
  });
});

test("GET /api/products?sourceUrl finds the products imported from a page, with or without a search", async () => {
  const cookie = await login(gw.app, t.member.email, t.member.password);
  const list = async (query: string) =>
    (
      await gw.app.inject({ method: "GET", url: `/api/products?${query}`, headers: { cookie } })
    ).json<List<ProductListItem>>();
  const found = await list(`sourceUrl=${encodeURIComponent(URL_OF_PAGE)}`);
  expect(found.items.map((p) => p.title)).toEqual(["Glazed teapot, celadon"]);
  expect((await list(`sourceUrl=${encodeURIComponent(URL_OF_PAGE)}&q=celadon`)).total).toBe(1);
  expect((await list(`sourceUrl=${encodeURIComponent(URL_OF_PAGE)}&q=iron`)).total).toBe(0);
  expect((await list(`sourceUrl=${encodeURIComponent(`${URL_OF_PAGE}?x=1`)}`)).total).toBe(0);
});
