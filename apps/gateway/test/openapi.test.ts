import { Validator } from "@seriousme/openapi-schema-validator";
import { startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
beforeAll(async () => { gw = await startGateway(); });
afterAll(() => gw.close());

test("/docs/json is a valid OpenAPI 3 document", async () => {
  const res = await gw.app.inject({ method: "GET", url: "/docs/json" });
  expect(res.statusCode).toBe(200);
  const result = await new Validator().validate(res.json());
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("it lists every API route under /api and /api/v1, each with its response schemas", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json();
  const expected = [
    ["post", "/auth/session"], ["get", "/auth/session"], ["delete", "/auth/session"],
    ["get", "/products"], ["get", "/products/{id}"], ["patch", "/products/{id}"], ["delete", "/products/{id}"],
    ["get", "/products/{id}/history"], ["get", "/legal/status"], ["post", "/legal/sign"],
    ["post", "/extension/ingest"], ["get", "/system"], ["post", "/system"],
    ["post", "/import/url"], ["post", "/scrape"], ["post", "/import/document"],
    ["get", "/sync-logs"], ["get", "/destinations"], ["delete", "/destinations"],
    ["get", "/publish-runs"], ["get", "/publish-runs/{id}"], ["get", "/publish-runs/{id}/events"], ["post", "/publish-runs/{id}/retry"],
    ["get", "/extension-keys"], ["post", "/extension-keys"], ["delete", "/extension-keys/{id}"], ["get", "/channels"],
    ["get", "/extension/me"], ["post", "/extension/imports"], ["get", "/extension/imports/{id}"], ["get", "/extension/imports/{id}/rows"],
    ["post", "/extension/imports/{id}/store"],
  ];
  for (const prefix of ["/api", "/api/v1"]) {
    for (const [method, path] of expected) {
      const op = doc.paths[`${prefix}${path}`]?.[method!];
      expect({ route: `${method} ${prefix}${path}`, documented: Boolean(op) }).toEqual({ route: `${method} ${prefix}${path}`, documented: true });
      expect(Object.keys(op.responses).length).toBeGreaterThan(0);
    }
  }
  const list = doc.paths["/api/products"].get;
  expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["page", "pageSize", "q", "sourceUrl"]);
  // The extension's preview is documented beside the saved product, and its routes take the key.
  const ingest = doc.paths["/api/extension/ingest"].post;
  expect(JSON.stringify(ingest.responses["200"])).toMatch(/"blocked"/);
  expect(ingest.security).toEqual([{ apiKey: [] }]);
  expect(doc.paths["/api/extension/imports"].post.security).toEqual([{ apiKey: [] }]);
  expect(doc.paths["/api/extension/imports"].get).toBeUndefined();
  expect(list.responses["422"]).toBeDefined();
});

test("it documents the three roles and the 403 of every route a role may be refused", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json();
  const session = doc.paths["/api/auth/session"].get.responses["200"].content["application/json"].schema;
  expect(session.properties.user.properties.role).toMatchObject({ enum: ["member", "owner", "admin"], description: expect.stringMatching(/platform operator/) });
  const guarded = [
    ["get", "/api/system"], ["post", "/api/system"], ["patch", "/api/destinations"], ["delete", "/api/destinations"],
    ["get", "/api/integrations/{channel}/connect"], ["get", "/api/integrations/{channel}/callback"],
    ["post", "/api/extension-keys"], ["delete", "/api/extension-keys/{id}"],
  ] as const;
  for (const [method, path] of guarded) {
    expect({ route: `${method} ${path}`, documents403: Boolean(doc.paths[path][method].responses["403"]) }).toEqual({ route: `${method} ${path}`, documents403: true });
  }
});

test("the dashboard's routes are documented with their statuses: the run's event stream, the browser's redirect, created keys", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json();
  const events = doc.paths["/api/publish-runs/{id}/events"].get.responses;
  expect(Object.keys(events["200"].content)).toEqual(["text/event-stream"]);
  expect(Object.keys(events).sort()).toEqual(["200", "401", "404", "429", "503"]);
  expect(doc.paths["/api/publish-runs/{id}"].get.responses["200"].content["application/json"].schema.properties.failures).toBeDefined();
  // A publish's answer, or a dry run's (dryRun: true).
  const [accepted, dryRun] = doc.paths["/api/products/publish"].post.responses["200"].content["application/json"].schema.anyOf;
  expect(accepted.required).toContain("runId");
  expect(dryRun.required).toEqual(expect.arrayContaining(["dryRun", "items", "summary"]));
  expect(doc.paths["/api/products"].get.responses["200"].content["application/json"].schema.properties.items.items.properties.listings).toBeDefined();
  expect(doc.paths["/api/integrations/{channel}/callback"].get.responses["302"]).toBeDefined();
  expect(doc.paths["/api/extension-keys"].post.responses["201"]).toBeDefined();
  expect(doc.paths["/api/extension-keys/{id}"].delete.responses["204"]).toBeDefined();
  // The dashboard's own pages are not API routes.
  expect(Object.keys(doc.paths).filter((p) => !p.startsWith("/api/"))).toEqual([]);
});
