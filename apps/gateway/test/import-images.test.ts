// Image URLs are stored, then rendered in merchants' browsers and downloaded by channels: every
// import path leaves out those the page URL policy refuses, and its answer says which and why.
import { createTestOrg, startFixtureServer, type TestOrg } from "@catalog/testing";
import type { DocumentImportResult, IngestResult, UrlImportResult } from "../src/api-types.js";
import { login, startGateway, startScrapeWorker, type Gateway } from "./harness.js";
import { imported } from "./import-items.js";

const PUBLIC = "https://93.184.216.34/ok.png";
const LOOPBACK = "http://127.0.0.1:4999/a.png";
const METADATA = "http://169.254.169.254/b.png";
const NAMED_LOOPBACK = "http://img.localhost/c.png";
const DROPPED = [
  { url: LOOPBACK, reason: "is a loopback address" },
  { url: METADATA, reason: "is a link-local address" },
  { url: NAMED_LOOPBACK, reason: "resolves to a loopback address (127.0.0.1)" },
];

describe("with the production policy", () => {
  let gw: Gateway;
  let t: TestOrg;
  let cookie: string;
  beforeAll(async () => {
    gw = await startGateway({ LOCAL_INGEST: "false" });
    t = await createTestOrg(gw.db, "images");
    cookie = await login(gw.app, t.member.email, t.member.password);
  });
  afterAll(() => gw.close());

  test("extension ingest stores only public image URLs and says which it dropped", async () => {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { "x-service-api-key": t.apiKey },
      payload: {
        url: "https://shop.example/img-ext",
        product: {
          title: "Lamp",
          images: [PUBLIC, LOOPBACK, METADATA, NAMED_LOOPBACK],
          variants: [
            {
              sku: "L-1",
              title: "Red",
              price: null,
              options: {},
              gtin: null,
              availability: null,
              image: METADATA,
            },
          ],
        },
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<IngestResult>();
    expect(body.product.images).toEqual([PUBLIC]);
    expect(body.product.variants[0]!.image).toBeNull();
    expect(body.droppedImages).toEqual(DROPPED);
    const row = await gw.db.product.findUniqueOrThrow({ where: { id: body.product.id } });
    expect(row.images).toEqual([PUBLIC]);
    expect(JSON.stringify(row.variants)).not.toContain("169.254");
  });

  test("a page the extension sent with private images: the same", async () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"Product","name":"Shade","sku":"SHADE-1",
      "image":["${PUBLIC}","${LOOPBACK}","${METADATA}"]}</script></head><body></body></html>`;
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { "x-service-api-key": t.apiKey },
      payload: { url: "https://shop.example/img-html", html },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      product: { images: [PUBLIC] },
      droppedImages: DROPPED.slice(0, 2),
    });
  });

  test("a document's private image URLs are dropped, per row, in the answer and in the catalog", async () => {
    const csv = `Title,SKU,Price,Currency,Image\nDoc Lamp,DOC-IMG-1,10.00,EUR,${LOOPBACK}\nDoc Shade,DOC-IMG-2,12.00,EUR,${PUBLIC}\n`;
    const boundary = "----images";
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="persist"\r\n\r\ntrue\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/import/document",
      headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const { items } = res.json<DocumentImportResult>();
    expect(items[0]).toMatchObject({
      product: { images: [] },
      droppedImages: [{ url: LOOPBACK, reason: "is a loopback address" }],
    });
    const shade = imported(items[1]);
    expect(shade.product.images).toEqual([PUBLIC]);
    expect(shade.droppedImages).toBeUndefined();
    const stored = await gw.db.product.findMany({
      where: { orgId: t.org.id, sku: { in: ["DOC-IMG-1", "DOC-IMG-2"] } },
      orderBy: { sku: "asc" },
    });
    expect(stored.map((p) => p.images)).toEqual([[], [PUBLIC]]);
  });

  test("an image whose host cannot be resolved is dropped with the reason, as a private one is", async () => {
    const GONE = "https://cdn.gone.invalid/lamp.png";
    const REASON = "has a host that could not be found (DNS lookup failed: ENOTFOUND)";
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { "x-service-api-key": t.apiKey },
      payload: {
        url: "https://shop.example/img-gone",
        product: { title: "Gone Lamp", images: [PUBLIC, GONE] },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      product: { images: [PUBLIC] },
      droppedImages: [{ url: GONE, reason: REASON }],
    });

    const csv = `Title,SKU,Price,Currency,Image\nGone Shade,DOC-GONE-1,12.00,EUR,${GONE}\n`;
    const boundary = "----gone";
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="persist"\r\n\r\ntrue\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const doc = await gw.app.inject({
      method: "POST",
      url: "/api/import/document",
      headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(doc.statusCode).toBe(200);
    expect(doc.json<DocumentImportResult>().items[0]).toMatchObject({
      product: { images: [] },
      droppedImages: [{ url: GONE, reason: REASON }],
    });
    const stored = await gw.db.product.findFirstOrThrow({
      where: { orgId: t.org.id, sku: "DOC-GONE-1" },
    });
    expect(stored.images).toEqual([]);
  });
});

test("URL imports drop refused images too (local ingest lets private ones through, never an unspecified address)", async () => {
  const site = await startFixtureServer({
    "/p/lamp": {
      body: `<html><head><script type="application/ld+json">{"@type":"Product","name":"Url Lamp","sku":"URL-IMG-1",
      "image":["/img/lamp.jpg","http://0.0.0.0/x.png"]}</script></head><body></body></html>`,
    },
  });
  const gw = await startGateway({ LOCAL_INGEST: "true" });
  const worker = startScrapeWorker(gw, { fetchTimeoutMs: 4000, concurrency: 1 });
  try {
    const t = await createTestOrg(gw.db, "images-url");
    const cookie = await login(gw.app, t.member.email, t.member.password);
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/import/url",
      headers: { cookie },
      payload: { urls: [site.url("/p/lamp")] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<UrlImportResult>().items[0]).toMatchObject({
      ok: true,
      product: { images: [site.url("/img/lamp.jpg")] },
      droppedImages: [{ url: "http://0.0.0.0/x.png", reason: "is an unspecified address" }],
    });
  } finally {
    await worker.close();
    await gw.close();
    await site.close();
  }
});
