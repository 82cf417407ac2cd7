import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { createTestOrg, type TestOrg } from "@catalog/testing";
import { login, startGateway, type Gateway } from "./harness.js";
import { privatePrefix } from "./publishing-fixtures.js";
import { anyOf, stringMatching } from "@catalog/test-support/matchers";

let dir: string;
let gw: Gateway;
let t: TestOrg;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "headers-"));
  await writeFile(join(dir, "index.html"), "<!doctype html><title>dashboard</title>");
  gw = await startGateway({ DASHBOARD_DIR: dir });
  t = await createTestOrg(gw.db, "headers");
});
afterAll(async () => {
  await gw.close();
  await rm(dir, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy, whatever their separators and order. */
const directives = (csp: unknown) =>
  String(csp)
    .split(";")
    .map((d) => d.trim().replace(/\s+/g, " "))
    .filter(Boolean)
    .sort();

function expectSecurityHeaders(res: LightMyRequestResponse) {
  expect({
    nosniff: res.headers["x-content-type-options"],
    frames: res.headers["x-frame-options"],
    referrer: res.headers["referrer-policy"],
    hsts: res.headers["strict-transport-security"],
    opener: res.headers["cross-origin-opener-policy"],
    resources: res.headers["cross-origin-resource-policy"],
    flash: res.headers["x-permitted-cross-domain-policies"],
  }).toEqual({
    nosniff: "nosniff",
    frames: "DENY",
    referrer: anyOf(String),
    hsts: stringMatching(/^max-age=\d{7,}/),
    opener: "same-origin",
    resources: "same-origin",
    flash: "none",
  });
}

/** An API answer is data: nothing may load into it or frame it. */
function expectApiHeaders(res: LightMyRequestResponse) {
  expectSecurityHeaders(res);
  expect(directives(res.headers["content-security-policy"])).toEqual([
    "default-src 'none'",
    "frame-ancestors 'none'",
  ]);
  expect(res.headers["referrer-policy"]).toBe("no-referrer");
}

test("API answers carry nosniff and the other security headers: success, errors, the framework's 404 and the probes", async () => {
  const cookie = await login(gw.app, t.member.email, t.member.password);
  const answers = [
    await gw.app.inject({ method: "GET", url: "/api/products", headers: { cookie } }),
    await gw.app.inject({ method: "GET", url: "/api/v1/auth/session", headers: { cookie } }),
    await gw.app.inject({ method: "GET", url: "/api/products" }),
    await gw.app.inject({
      method: "POST",
      url: "/api/auth/session",
      payload: { email: t.member.email },
    }),
    await gw.app.inject({
      method: "GET",
      url: "/api/nothing-here",
      headers: { accept: "application/json" },
    }),
    await gw.app.inject({ method: "GET", url: "/healthz" }),
  ];
  expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 401, 422, 404, 200]);
  for (const res of answers) expectApiHeaders(res);
});

test("an answer from the rate limiter, before any route runs, carries them too", async () => {
  const limited = await startGateway({
    REDIS_PREFIX: privatePrefix("headers-limit"),
    RATE_LIMIT_MAX: "1",
  });
  try {
    await limited.app.inject({ method: "GET", url: "/api/products" });
    const res = await limited.app.inject({ method: "GET", url: "/api/products" });
    expect(res.statusCode).toBe(429);
    expectApiHeaders(res);
  } finally {
    await limited.close();
  }
});

test("the extension's routes still answer any origin's preflight, with the headers", async () => {
  const res = await gw.app.inject({
    method: "OPTIONS",
    url: "/api/extension/preview",
    headers: {
      origin: "chrome-extension://abcdefghijklmnop",
      "access-control-request-method": "POST",
      "access-control-request-headers": "x-service-api-key,content-type",
    },
  });
  expect([res.statusCode, res.headers["access-control-allow-origin"]]).toEqual([
    204,
    "chrome-extension://abcdefghijklmnop",
  ]);
  expectSecurityHeaders(res);
});

test("the dashboard's page keeps its own CSP and referrer policy, with the other headers", async () => {
  const res = await gw.app.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
  expect(res.statusCode).toBe(200);
  expectSecurityHeaders(res);
  expect(directives(res.headers["content-security-policy"])).toEqual([
    "base-uri 'self'",
    "connect-src 'self'",
    "default-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' https: http: data:",
    "object-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
  ]);
  expect(res.headers["referrer-policy"]).toBe("same-origin");
});

test("the OpenAPI page gets a CSP that lets Swagger UI load its own scripts and styles, and still no framing", async () => {
  const page = await gw.app.inject({
    method: "GET",
    url: "/docs/",
    headers: { accept: "text/html" },
  });
  expect(page.statusCode).toBe(200);
  expectSecurityHeaders(page);
  const csp = directives(page.headers["content-security-policy"]);
  expect(csp).toEqual(
    expect.arrayContaining(["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'"]),
  );
  const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map(
    (m) => new URL(m[1]!, "http://gateway/docs/").pathname,
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const path of scripts) {
    const script = await gw.app.inject({ method: "GET", url: path });
    expect({ path, status: script.statusCode, type: script.headers["content-type"] }).toEqual({
      path,
      status: 200,
      type: stringMatching(/javascript/),
    });
    expect(script.headers["x-content-type-options"]).toBe("nosniff");
  }
});
