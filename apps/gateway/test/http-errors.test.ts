import { createTestOrg, type TestOrg } from "@catalog/testing";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;
let productId: string;

beforeAll(async () => {
  gw = await startGateway({ BODY_LIMIT: "2048", CORS_ORIGINS: "https://dashboard.test" });
  t = await createTestOrg(gw.db, "errors");
  cookie = await login(gw.app, t.member.email, t.member.password);
  productId = (await gw.db.product.create({ data: { orgId: t.org.id, title: "Kettle" } })).id;
});
afterAll(() => gw.close());

const patchRaw = (payload: string, contentType: string, headers: Record<string, string> = {}) =>
  gw.app.inject({
    method: "PATCH",
    url: `/api/products/${productId}`,
    headers: { cookie, "content-type": contentType, ...headers },
    payload,
  });

test("an unknown route is 404 { error }", async () => {
  for (const url of ["/api/nope", "/api/v1/nope", "/nope"]) {
    const res = await gw.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatch(/No route for GET/);
  }
});

describe("errors Fastify answers itself have the same { error } shape and the request id", () => {
  const answer = (method: "GET" | "DELETE" | "PATCH", url: string) =>
    gw.app.inject({
      method,
      url,
      headers: { cookie, "content-type": "application/json" },
      ...(method === "PATCH" ? { payload: "{}" } : {}),
    });

  test.each([
    ["GET", "/api/products/%E0%A4%A"],
    ["DELETE", "/api/products/%zz"],
    ["PATCH", "/api/v1/products/%zz"],
    ["GET", "/assets/%zz.js"],
    ["GET", "/docs/%zz"],
    ["GET", "/%E0%A4%A"],
  ] as const)("a path that is not valid percent-encoding is 400: %s %s", async (method, url) => {
    const res = await answer(method, url);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toBe("the URL's path is not valid percent-encoded UTF-8");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  const long = "a".repeat(10_000);
  test.each([
    ["GET", "/api/products/"],
    ["DELETE", "/api/products/"],
    ["PATCH", "/api/v1/products/"],
    ["GET", "/api/imports/"],
    ["GET", "/api/nope/"],
  ] as const)(
    "a path segment of 10,000 characters is 414 naming the limit: %s %s<10,000 characters>",
    async (method, path) => {
      const res = await answer(method, `${path}${long}`);
      expect(res.statusCode).toBe(414);
      expect(errorOf(res)).toBe("a path segment is longer than the limit of 100 characters");
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  test("a segment of 100 characters reaches the route (which refuses so long an id), one of 101 is 414", async () => {
    const atLimit = await answer("GET", `/api/products/${"a".repeat(100)}`);
    expect(atLimit.statusCode).toBe(422);
    expect(errorOf(atLimit)).toBe('path field "id" must not have more than 64 characters');
    const over = await answer("GET", `/api/products/${"a".repeat(101)}`);
    expect(over.statusCode).toBe(414);
  });

  test("an OPTIONS request that is not a CORS preflight is 400 { error }", async () => {
    for (const url of ["/api/products", "*"]) {
      const res = await gw.app.inject({ method: "OPTIONS", url });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toBe(
        "OPTIONS is answered only as a CORS preflight: send Origin and Access-Control-Request-Method",
      );
    }
  });
});

test("malformed JSON is 400 { error }", async () => {
  const res = await patchRaw('{"title": "x",', "application/json");
  expect(res.statusCode).toBe(400);
  expect(errorOf(res)).toMatch(/malformed JSON/);
});

test("a body over the limit is 413 { error } naming the limit", async () => {
  const res = await patchRaw(JSON.stringify({ description: "x".repeat(5000) }), "application/json");
  expect(res.statusCode).toBe(413);
  expect(errorOf(res)).toMatch(/2048 bytes/);
});

test.each(["text/plain", "application/x-www-form-urlencoded", "application/xml"])(
  "a %s body is 415 { error }",
  async (type) => {
    const res = await patchRaw("title=x", type);
    expect(res.statusCode).toBe(415);
    expect(errorOf(res)).toMatch(/application\/json/);
  },
);

test("a validation failure is 422 { error } naming the field", async () => {
  const res = await patchRaw(JSON.stringify({ title: 5 }), "application/json");
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toBe('body field "title" must be string');
});

test("every response carries x-request-id: the caller's when it is a plain token, else a new one", async () => {
  const given = await gw.app.inject({
    method: "GET",
    url: "/healthz",
    headers: { "x-request-id": "trace-abc.123" },
  });
  expect(given.headers["x-request-id"]).toBe("trace-abc.123");
  const fresh = await gw.app.inject({ method: "GET", url: "/api/nope" });
  expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  const hostile = await gw.app.inject({
    method: "GET",
    url: "/healthz",
    headers: { "x-request-id": "a\u0001b c" },
  });
  expect(hostile.headers["x-request-id"]).not.toContain(" ");
});

test("health: /healthz is alive and /readyz checks PostgreSQL and Redis, both without auth", async () => {
  expect((await gw.app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({
    status: "ok",
  });
  const ready = await gw.app.inject({ method: "GET", url: "/readyz" });
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: "ready" });
});

describe("browser clients", () => {
  test("a cookie-authenticated mutation from a foreign origin is 403 and changes nothing", async () => {
    const res = await patchRaw(JSON.stringify({ title: "Hijacked" }), "application/json", {
      origin: "https://evil.test",
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatch(/origin https:\/\/evil.test/);
    expect((await gw.db.product.findUniqueOrThrow({ where: { id: productId } })).title).toBe(
      "Kettle",
    );
  });

  test("the configured dashboard origin may mutate and gets credentialed CORS", async () => {
    const res = await patchRaw(JSON.stringify({ title: "Kettle 2" }), "application/json", {
      origin: "https://dashboard.test",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe("https://dashboard.test");
    expect(res.headers["access-control-allow-credentials"]).toBe("true");
  });

  test("a preflight from a foreign origin gets no CORS grant", async () => {
    const res = await gw.app.inject({
      method: "OPTIONS",
      url: "/api/products",
      headers: { origin: "https://evil.test", "access-control-request-method": "PATCH" },
    });
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("the extension route accepts any origin (it authenticates by key)", async () => {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { origin: "chrome-extension://abcdef", "x-service-api-key": t.apiKey },
      payload: { url: "https://shop.example/p/1" },
    });
    expect(res.statusCode).not.toBe(403);
    expect(res.headers["access-control-allow-origin"]).toBe("chrome-extension://abcdef");
  });
});
