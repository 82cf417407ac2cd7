import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { startGateway, type Gateway } from "./harness.js";
import { stringMatching } from "@catalog/test-support/matchers";

const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const indexHtml = `<!doctype html><html><head><script type="module" src="/assets/app-3f2a1b.js"></script></head><body><div id="root"></div></body></html>`;
const bigScript = `export const rows = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, title: `Product ${i}` })))};`;
let dir: string;
let gw: Gateway;
let bare: Gateway;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dashboard-"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), indexHtml);
  await writeFile(join(dir, "assets", "app-3f2a1b.js"), "console.log('dashboard')");
  // As the build leaves a script it compressed (apps/dashboard/scripts/compress-assets.mjs).
  await writeFile(join(dir, "assets", "big-9c8d7e.js"), bigScript);
  await writeFile(join(dir, "assets", "big-9c8d7e.js.br"), brotliCompressSync(bigScript));
  await writeFile(join(dir, "assets", "big-9c8d7e.js.gz"), gzipSync(bigScript));
  await writeFile(join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  await writeFile(join(dir, ".source-hash"), "abc");
  gw = await startGateway({ DASHBOARD_DIR: dir });
  bare = await startGateway({ DASHBOARD_DIR: join(dir, "not-built") });
});
afterAll(async () => {
  await gw?.close();
  await bare?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, accept = browser, g = gw, method: "GET" | "HEAD" = "GET") =>
  g.app.inject({ method, url, headers: { accept } });

function expectDashboardPage(res: Awaited<ReturnType<typeof get>>) {
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/html/);
  expect(res.headers["cache-control"]).toBe("no-store");
  const csp = res.headers["content-security-policy"] as string;
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("img-src 'self' https: http: data:");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
}

test("/ is the dashboard's index.html, never cached, with security headers", async () => {
  const res = await get("/");
  expectDashboardPage(res);
  expect(res.body).toBe(indexHtml);
  expectDashboardPage(await get("/index.html"));
});

test("a compressed build is sent as the browser accepts it: brotli, else gzip, else as it is", async () => {
  const as = (encoding?: string) =>
    gw.app.inject({
      method: "GET",
      url: "/assets/big-9c8d7e.js",
      headers: encoding ? { "accept-encoding": encoding } : {},
    });
  const br = await as("gzip, deflate, br");
  expect(br.statusCode).toBe(200);
  expect(br.headers["content-encoding"]).toBe("br");
  expect(br.headers["content-type"]).toMatch(/javascript/);
  expect(br.headers.vary).toMatch(/accept-encoding/i);
  expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(br.rawPayload.length).toBeLessThan(bigScript.length / 4);
  expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigScript);

  const gz = await as("gzip");
  expect(gz.headers["content-encoding"]).toBe("gzip");
  expect(gunzipSync(gz.rawPayload).toString()).toBe(bigScript);

  const plain = await as();
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.body).toBe(bigScript);
  // A script the build left uncompressed is sent as it is, whatever the browser accepts.
  const small = await gw.app.inject({
    method: "GET",
    url: "/assets/app-3f2a1b.js",
    headers: { "accept-encoding": "br, gzip" },
  });
  expect(small.headers["content-encoding"]).toBeUndefined();
  expect(small.body).toBe("console.log('dashboard')");
});

test("hashed assets are cached for a year as immutable", async () => {
  const res = await get("/assets/app-3f2a1b.js", "*/*");
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/javascript/);
  expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(res.body).toBe("console.log('dashboard')");
  const missing = await get("/assets/app-000000.js", "*/*");
  expect(missing.statusCode).toBe(404);
  expect(missing.json()).toEqual({ error: stringMatching(/No route/) });
});

test("a dashboard screen opened directly (a deep link, a reload) gets index.html, GET and HEAD", async () => {
  for (const path of [
    "/products",
    "/runs/5d1c2d4e-0000-4000-8000-000000000000",
    "/products?q=mug&page=2",
    "/sign-in?next=%2Fkeys",
  ]) {
    const res = await get(path);
    expectDashboardPage(res);
    expect(res.body).toBe(indexHtml);
  }
  const head = await get("/destinations", browser, gw, "HEAD");
  expect(head.statusCode).toBe(200);
  expect(head.headers["cache-control"]).toBe("no-store");
});

test("the API, /docs and the probes keep their answers; unknown API paths stay JSON 404 even for a browser", async () => {
  for (const path of ["/api/nothing-here", "/api/v1/nothing", "/api", "/healthz/extra"]) {
    const res = await get(path);
    expect({ path, status: res.statusCode }).toEqual({ path, status: 404 });
    expect(res.json()).toEqual({ error: stringMatching(/No route for GET/) });
  }
  expect((await get("/healthz", "*/*")).json()).toEqual({ status: "ok" });
  expect((await get("/api/auth/session", "application/json")).statusCode).toBe(401);
  const docs = await get("/docs/json", "application/json");
  expect(docs.statusCode).toBe(200);
  expect(docs.json<{ openapi: string }>().openapi).toMatch(/^3\./);
  expect((await get("/docs")).statusCode).not.toBe(404);
});

test("a client that does not ask for HTML gets the JSON 404, and non-GET methods are not served the page", async () => {
  const json = await get("/products", "application/json");
  expect(json.statusCode).toBe(404);
  expect(json.json()).toEqual({ error: "No route for GET /products" });
  const post = await gw.app.inject({
    method: "POST",
    url: "/products",
    headers: { accept: browser },
    payload: {},
  });
  expect(post.statusCode).toBe(404);
});

test("files beside index.html are served; dotfiles and paths outside the build are not", async () => {
  const icon = await get("/favicon.svg", "*/*");
  expect(icon.statusCode).toBe(200);
  expect(icon.headers["cache-control"]).toBe("public, max-age=3600");
  expect((await get("/.source-hash", "*/*")).statusCode).toBe(404);
  expect((await get("/..%2Fpackage.json", "*/*")).statusCode).not.toBe(200);
  expect((await get("/missing.png", browser)).statusCode).toBe(404);
});

test("without a build, / and screens answer 503 with a page naming the build command; the API still works", async () => {
  for (const path of ["/", "/products"]) {
    const res = await get(path, browser, bare);
    expect(res.statusCode).toBe(503);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toContain("pnpm dashboard:build");
  }
  expect((await get("/healthz", "*/*", bare)).statusCode).toBe(200);
  expect((await get("/api/nothing", browser, bare)).statusCode).toBe(404);
});
