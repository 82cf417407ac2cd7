// Hostile but well-formed input: deep nesting, NUL characters, oversized request lines. Each must
// be a 4xx `{ error }` naming the field or the limit, with nothing stored.
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import { MAX_TITLE_AND_SKU_BYTES } from "@catalog/values";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { documentUpload } from "./multipart.js";
import { objectContaining, stringMatching } from "@catalog/test-support/matchers";
import type { DocumentImportResult, Product } from "../src/api-types.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;
let productId: string;

beforeAll(async () => {
  gw = await startGateway({ BODY_LIMIT: String(4 * 1024 * 1024) });
  t = await createTestOrg(gw.db, "bad-input");
  cookie = await login(gw.app, t.member.email, t.member.password);
  productId = (await gw.db.product.create({ data: { orgId: t.org.id, title: "Kettle" } })).id;
});
afterAll(() => gw.close());

/**
 * `{"a":{"a":...{"a":1}}}` nested `levels` deep, as text (building it as an object would recurse).
 */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

const patchText = (payload: string) =>
  gw.app.inject({
    method: "PATCH",
    url: `/api/products/${productId}`,
    headers: { cookie, "content-type": "application/json" },
    payload,
  });

/** A JSON document imported with persist, as the dashboard sends it. */
function importJson(json: string) {
  const upload = documentUpload(json, "products.json", { persist: "true" }, "application/json");
  return gw.app.inject({
    method: "POST",
    url: "/api/import/document",
    headers: { cookie, ...upload.headers },
    payload: upload.payload,
  });
}

test("attributes nested 10,000 levels deep in a product edit are 422 naming the field and the limit; nothing changes", async () => {
  const res = await patchText(`{"title":"Deep","attributes":${nestedJson(10_000)}}`);
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(
    /body field "attributes(\.a)*\.…" is nested deeper than the limit of 32 levels/,
  );
  const row = await gw.db.product.findUniqueOrThrow({ where: { id: productId } });
  expect(row).toMatchObject({ title: "Kettle", version: 1 });
});

test("attributes nested 10,000 levels deep from the extension are 422; no product is created", async () => {
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/extension/ingest",
    headers: { "x-service-api-key": t.apiKey, "content-type": "application/json" },
    payload: `{"url":"https://shop.example/deep","product":{"title":"Deep","attributes":${nestedJson(10_000)}}}`,
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(
    /body field "product\.attributes(\.a)*\.…" is nested deeper than the limit of 32 levels/,
  );
  expect(
    await gw.db.product.count({
      where: { orgId: t.org.id, sourceUrl: "https://shop.example/deep" },
    }),
  ).toBe(0);
});

test("JSON-LD nested 100,000 levels deep in the page the extension sent is ignored as unreadable, not a 500", async () => {
  const html = `<html><head><script type="application/ld+json">{"@type":"Product","name":"Deep","x":${nestedJson(100_000)}}</script></head><body></body></html>`;
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/extension/ingest",
    headers: { "x-service-api-key": t.apiKey },
    payload: { url: "https://shop.example/deep-ld", html },
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/no product title found/);
});

test("a NUL character in the page the extension sent is 422 naming the field, not a database error", async () => {
  const html = `<html><head><script type="application/ld+json">{"@type":"Product","name":"Nul mug","description":"a\\u0000b"}</script></head></html>`;
  const res = await gw.app.inject({
    method: "POST",
    url: "/api/extension/ingest",
    headers: { "x-service-api-key": t.apiKey },
    payload: { url: "https://shop.example/nul", html },
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/field "description" contains a NUL character/);
});

test("moderately nested attributes (20 levels) are still accepted", async () => {
  const res = await patchText(`{"attributes":${nestedJson(20)}}`);
  expect(res.statusCode).toBe(200);
});

test("a NUL character in the search is 422 naming the field, not a database error", async () => {
  const res = await gw.app.inject({
    method: "GET",
    url: "/api/products?q=%00",
    headers: { cookie },
  });
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/query field "q" .*NUL/);
});

test("a NUL character in an edited field is 422 naming the field; nothing changes", async () => {
  const res = await patchText(
    JSON.stringify({ title: "Ket\u0000tle", attributes: { care: "hand\u0000wash" } }),
  );
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(/body field "(title|attributes\.care)" .*NUL/);
  expect((await gw.db.product.findUniqueOrThrow({ where: { id: productId } })).title).toBe(
    "Kettle",
  );
});

test("a 100 KB query string is 431 with a JSON { error } naming the limit", async () => {
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = gw.app.server.address() as AddressInfo;
  const answer = await new Promise<{ status: number; type: string; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path: `/api/products?q=${"x".repeat(100 * 1024)}`,
          headers: { cookie },
        },
        (res) => {
          let body = "";
          res
            .setEncoding("utf8")
            .on("data", (chunk: string) => {
              body += chunk;
            })
            .on("end", () => {
              resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), body });
            });
        },
      );
      req.on("error", reject).end();
    },
  );
  expect(answer.status).toBe(431);
  expect(answer.type).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body)).toEqual({
    error: stringMatching(/request line .* and headers are larger than the limit of \d+ bytes/),
  });
});

describe("lone surrogates (text that is not valid Unicode) are 422 naming the field, never a database error", () => {
  // JSON's "\udc00": half of a surrogate pair, which PostgreSQL's jsonb refuses and its text
  // columns would turn into U+FFFD.
  const lone = "\\udc00";

  test.each([
    ["title", `{"title":"Ket${lone}tle"}`, "title"],
    ["an attribute's value", `{"attributes":{"care":"hand${lone}wash"}}`, "attributes.care"],
    ["an attribute's key", `{"attributes":{"ca${lone}re":"hand wash"}}`, "attributes.ca\\udc00re"],
    [
      "a variant's option",
      `{"variants":[{"sku":"K-1","title":"Small","price":null,"options":{"size":"S${lone}"},"gtin":null,"availability":null,"image":null}]}`,
      "variants.0.options.size",
    ],
  ])("in a product edit's %s; nothing changes", async (_what, payload, field) => {
    const before = await gw.db.product.findUniqueOrThrow({ where: { id: productId } });
    const res = await patchText(payload);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toBe(
      `body field "${field}" contains a lone surrogate (U+DC00), which is not valid Unicode text and cannot be stored`,
    );
    expect(await gw.db.product.findUniqueOrThrow({ where: { id: productId } })).toEqual(before);
  });

  test("a surrogate pair (an emoji) is valid text and is stored", async () => {
    const res = await patchText(JSON.stringify({ attributes: { mood: "\ud83d\ude00" } }));
    expect(res.statusCode).toBe(200);
    expect(res.json<Product>().attributes).toEqual({ mood: "😀" });
  });

  test("in the page the extension sent (JSON-LD) is 422 naming the field; no product is created", async () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"Product","name":"Lone mug","description":"a${lone}b"}</script></head></html>`;
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { "x-service-api-key": t.apiKey },
      payload: { url: "https://shop.example/lone", html },
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toBe(
      'field "description" contains a lone surrogate (U+DC00), which is not valid Unicode text and cannot be stored on https://shop.example/lone',
    );
    expect(
      await gw.db.product.count({
        where: { orgId: t.org.id, sourceUrl: "https://shop.example/lone" },
      }),
    ).toBe(0);
  });

  test("in a persisted JSON document, that row is an error item and the other rows are stored", async () => {
    const res = await importJson(
      `[{"title":"Lone ${lone} cup","sku":"LONE-1"},{"title":"Plain cup","sku":"LONE-2"}]`,
    );
    expect(res.statusCode).toBe(200);
    const { items } = res.json<DocumentImportResult>();
    expect(items).toEqual([
      {
        row: 1,
        ok: false,
        error:
          'row 1: field "title" contains a lone surrogate (U+DC00), which is not valid Unicode text and cannot be stored',
      },
      objectContaining({ row: 2, ok: true, action: "created" }),
    ]);
    expect(
      await gw.db.product.count({ where: { orgId: t.org.id, sku: { in: ["LONE-1", "LONE-2"] } } }),
    ).toBe(1);
  });
});

describe("a title and SKU too long together to be searched are 422 (a row's error in an import), never a database error", () => {
  // 500 and 255 characters, each within its own limit, of 4-byte characters: 3,020 bytes.
  const title = "\u{1F3FA}".repeat(500);
  const sku = "\u{1F9F5}".repeat(255);
  const reason = `title and SKU together take 3020 bytes in UTF-8, more than the ${MAX_TITLE_AND_SKU_BYTES} a product may have`;

  test("in a product edit; nothing changes", async () => {
    const before = await gw.db.product.findUniqueOrThrow({ where: { id: productId } });
    const res = await patchText(JSON.stringify({ title, sku }));
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toBe(reason);
    expect(await gw.db.product.findUniqueOrThrow({ where: { id: productId } })).toEqual(before);
  });

  test("in a persisted JSON document, that row is an error item and the other rows are stored", async () => {
    const res = await importJson(
      JSON.stringify([
        { title, sku },
        { title: "Short jar", sku: "JAR-2" },
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json<DocumentImportResult>().items).toEqual([
      { row: 1, ok: false, error: `row 1: ${reason}` },
      objectContaining({ row: 2, ok: true, action: "created" }),
    ]);
    expect(
      await gw.db.product.count({ where: { orgId: t.org.id, sku: { in: [sku, "JAR-2"] } } }),
    ).toBe(1);
  });
});

describe("letters whose lowercase is longer count as lowercased: searches keep title and SKU that way", () => {
  // "Ⱥ" takes 2 bytes and its lowercase 3: 500 of them and 225 4-byte characters take 1,900 bytes
  // as written and 2,400 lowercased, the most a product may have; one more character is too many.
  const title = "\u023A".repeat(500);
  const sku = (n: number) => "\u{1F9F5}".repeat(n);

  test("the most the limit allows is stored, and found by a search", async () => {
    const res = await patchText(JSON.stringify({ title, sku: sku(225) }));
    expect(res.statusCode).toBe(200);
    const found = await gw.app.inject({
      method: "GET",
      url: `/api/products?q=${encodeURIComponent("\u2C65\u2C65")}`,
      headers: { cookie },
    });
    expect(found.json<{ items: Product[] }>().items.map((p) => p.id)).toEqual([productId]);
  });

  test("one character more is a 422 saying so; nothing changes", async () => {
    const before = await gw.db.product.findUniqueOrThrow({ where: { id: productId } });
    const res = await patchText(JSON.stringify({ title, sku: sku(226) }));
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toBe(
      `title and SKU together take 2404 bytes in UTF-8 once lowercased (as searches keep them), more than the ${MAX_TITLE_AND_SKU_BYTES} a product may have`,
    );
    expect(await gw.db.product.findUniqueOrThrow({ where: { id: productId } })).toEqual(before);
  });
});

describe("malformed multipart bodies are 400 { error }, not 500", () => {
  const csv = "title,sku\nMultipart mug,MP-1\n";
  const routes = ["/api/import/document", "/api/imports", "/api/v1/imports"];
  const upload = (url: string, headers: Record<string, string>, payload: Buffer | string) =>
    gw.app.inject({ method: "POST", url, headers: { cookie, ...headers }, payload });

  test.each(routes)("%s: a Content-Type without its boundary", async (url) => {
    const res = await upload(
      url,
      { "content-type": "multipart/form-data" },
      documentUpload(csv, "mugs.csv").payload,
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toBe("malformed multipart/form-data body: Multipart: Boundary not found");
  });

  test.each(routes)(
    "%s: a body cut off before its closing boundary; nothing is imported",
    async (url) => {
      const whole = documentUpload(csv, "mugs.csv", { persist: "true" });
      const closing = whole.payload.lastIndexOf("\r\n--");
      const res = await upload(url, whole.headers, whole.payload.subarray(0, closing));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toBe(
        "malformed multipart/form-data body: Unexpected end of multipart data",
      );
      expect(await gw.db.product.count({ where: { orgId: t.org.id, sku: "MP-1" } })).toBe(0);
      expect(await gw.db.import.count({ where: { orgId: t.org.id, name: "mugs.csv" } })).toBe(0);
    },
  );

  test.each(routes)(
    "%s: a NUL character in the file name is 422 naming the part; no import is started",
    async (url) => {
      const named = documentUpload(csv, "mugs\u0000.csv");
      const res = await upload(url, named.headers, named.payload);
      expect(res.statusCode).toBe(422);
      expect(errorOf(res)).toBe(
        'multipart part "file": its file name contains a NUL character (U+0000), which cannot be stored',
      );
      expect(await gw.db.import.count({ where: { orgId: t.org.id } })).toBe(0);
    },
  );
});
