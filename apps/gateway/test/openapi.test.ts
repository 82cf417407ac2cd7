import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lintFromString, loadConfig } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createTestOrg } from "@catalog/testing";
import { login, startGateway, type Gateway } from "./harness.js";
import type { OpenApiDocument, Operation } from "./openapi-document.js";
import { objectContaining, stringMatching } from "@catalog/test-support/matchers";

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

test("/docs/json is a valid OpenAPI 3 document", async () => {
  const res = await gw.app.inject({ method: "GET", url: "/docs/json" });
  expect(res.statusCode).toBe(200);
  const result = await new Validator().validate(res.json());
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("it lists every API route under /api and /api/v1, each with its response schemas", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const expected = [
    ["post", "/auth/session"],
    ["get", "/auth/session"],
    ["delete", "/auth/session"],
    ["get", "/products"],
    ["get", "/products/{id}"],
    ["patch", "/products/{id}"],
    ["delete", "/products/{id}"],
    ["get", "/products/{id}/history"],
    ["get", "/legal/status"],
    ["post", "/legal/sign"],
    ["get", "/legal/documents/{document}"],
    ["post", "/extension/ingest"],
    ["get", "/system"],
    ["post", "/system"],
    ["post", "/import/url"],
    ["post", "/scrape"],
    ["post", "/import/document"],
    ["get", "/sync-logs"],
    ["get", "/destinations"],
    ["delete", "/destinations"],
    ["get", "/publish-runs"],
    ["get", "/publish-runs/{id}"],
    ["get", "/publish-runs/{id}/events"],
    ["post", "/publish-runs/{id}/retry"],
    ["get", "/extension-keys"],
    ["post", "/extension-keys"],
    ["delete", "/extension-keys/{id}"],
    ["get", "/channels"],
    ["get", "/extension/me"],
    ["post", "/extension/imports"],
    ["get", "/extension/imports/{id}"],
    ["get", "/extension/imports/{id}/rows"],
    ["post", "/extension/imports/{id}/store"],
  ];
  for (const prefix of ["/api", "/api/v1"]) {
    for (const [method, path] of expected) {
      const op = doc.paths[`${prefix}${path}`]?.[method!];
      expect({ route: `${method} ${prefix}${path}`, documented: Boolean(op) }).toEqual({
        route: `${method} ${prefix}${path}`,
        documented: true,
      });
      expect(Object.keys(op!.responses).length).toBeGreaterThan(0);
    }
  }
  const list = doc.paths["/api/products"]!.get!;
  expect(list.parameters!.map((p) => p.name).sort()).toEqual([
    "availability",
    "cursor",
    "destinationAccountId",
    "listing",
    "page",
    "pageSize",
    "q",
    "sort",
    "sourceUrl",
    "stock",
  ]);
  // The extension's preview is documented beside the saved product, and its routes take the key.
  const ingest = doc.paths["/api/extension/ingest"]!.post!;
  expect(JSON.stringify(ingest.responses["200"])).toMatch(/"blocked"/);
  expect(ingest.security).toEqual([{ apiKey: [] }]);
  expect(doc.paths["/api/extension/imports"]!.post!.security).toEqual([{ apiKey: [] }]);
  expect(doc.paths["/api/extension/imports"]!.get).toBeUndefined();
  expect(list.responses["422"]).toBeDefined();
});

test("it documents the three roles and the 403 of every route a role may be refused", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const session =
    doc.paths["/api/auth/session"]!.get!.responses["200"]!.content!["application/json"]!.schema;
  expect(session.properties!.user!.properties!.role).toMatchObject({
    enum: ["member", "owner", "admin"],
    description: stringMatching(/platform operator/),
  });
  const guarded = [
    ["get", "/api/system"],
    ["post", "/api/system"],
    ["patch", "/api/destinations"],
    ["delete", "/api/destinations"],
    ["get", "/api/integrations/{channel}/connect"],
    ["get", "/api/integrations/{channel}/callback"],
    ["post", "/api/extension-keys"],
    ["delete", "/api/extension-keys/{id}"],
  ] as const;
  for (const [method, path] of guarded) {
    expect({
      route: `${method} ${path}`,
      documents403: Boolean(doc.paths[path]![method]!.responses["403"]),
    }).toEqual({ route: `${method} ${path}`, documents403: true });
  }
});

test("the dashboard's routes are documented with their statuses: the run's event stream, the browser's redirect, created keys", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const events = doc.paths["/api/publish-runs/{id}/events"]!.get!.responses;
  expect(Object.keys(events["200"]!.content!)).toEqual(["text/event-stream"]);
  expect(Object.keys(events).sort()).toEqual([
    "200",
    "400",
    "401",
    "403",
    "404",
    "414",
    "422",
    "429",
    "431",
    "500",
    "503",
  ]);
  expect(
    doc.paths["/api/publish-runs/{id}"]!.get!.responses["200"]!.content!["application/json"]!.schema
      .properties!.failures,
  ).toBeDefined();
  // A publish's answer, or a dry run's (dryRun: true).
  const [accepted, dryRun] =
    doc.paths["/api/products/publish"]!.post!.responses["200"]!.content!["application/json"]!.schema
      .anyOf!;
  expect(accepted!.required).toContain("runId");
  expect(dryRun!.required).toEqual(expect.arrayContaining(["dryRun", "items", "summary"]));
  expect(
    doc.paths["/api/products"]!.get!.responses["200"]!.content!["application/json"]!.schema
      .properties!.items!.items!.properties!.listings,
  ).toBeDefined();
  expect(doc.paths["/api/integrations/{channel}/callback"]!.get!.responses["302"]).toBeDefined();
  expect(doc.paths["/api/extension-keys"]!.post!.responses["201"]).toBeDefined();
  expect(doc.paths["/api/extension-keys/{id}"]!.delete!.responses["204"]).toBeDefined();
  // The dashboard's own pages are not API routes.
  expect(Object.keys(doc.paths).filter((p) => !p.startsWith("/api/"))).toEqual([]);
});

const operations = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      route: `${method} ${path}`,
      path,
      method,
      op,
    })),
  );
const gatewayDir = fileURLToPath(new URL("..", import.meta.url));

test("Redocly's recommended rules find no problem in the document (the exceptions are in redocly.yaml and .redocly.lint-ignore.yaml, each with its reason)", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const config = await loadConfig({ configPath: join(gatewayDir, "redocly.yaml") });
  // Linted as the gateway folder's openapi.json, the name the ignore file gives it.
  const problems = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: join(gatewayDir, "openapi.json"),
    config,
  });
  expect(
    problems
      .filter((p) => !p.ignored)
      .map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`),
  ).toEqual([]);
});

test("every operation has an operationId of its own: the route's name under /api, the same with V1 under /api/v1", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const all = operations(doc);
  expect(all.filter(({ op }) => !op.operationId).map(({ route }) => route)).toEqual([]);
  const seen = new Map<string, string>();
  const duplicates = all
    .filter(({ route, op }) => seen.has(op.operationId!) || !seen.set(op.operationId!, route))
    .map(({ route, op }) => `${route} repeats ${op.operationId} of ${seen.get(op.operationId!)}`);
  expect(duplicates).toEqual([]);
  expect(doc.paths["/api/products"]!.get!.operationId).toBe("listProducts");
  expect(doc.paths["/api/v1/products"]!.get!.operationId).toBe("listProductsV1");
  expect(doc.paths["/api/imports/{id}"]!.get!.operationId).toBe("getImport");
  expect(doc.paths["/api/extension/imports/{id}"]!.get!.operationId).toBe("getExtensionImport");
});

test("every operation says who may call it: public ones explicitly, with security []", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  expect(
    operations(doc)
      .filter(({ op }) => op.security === undefined)
      .map(({ route }) => route),
  ).toEqual([]);
  expect(doc.paths["/api/auth/session"]!.post!.security).toEqual([]);
  expect(doc.paths["/api/integrations/{channel}/callback"]!.post!.security).toEqual([]);
  expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
    "apiKey",
    "apiToken",
    "notificationSecret",
    "session",
  ]);
});

test("the answers every route can give, from the framework and the gateway's hooks, are documented with the { error } schema", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const statuses = (op: Operation) => Object.keys(op.responses);
  // A DELETE with a body: malformed (400), too large (413), not JSON (415); a foreign Origin (403);
  // a malformed id (422), one too long for the router (414); the rate limit (429); headers too
  // large (431).
  const remove = doc.paths["/api/products/{id}"]!.delete!;
  expect(statuses(remove)).toEqual(
    expect.arrayContaining([
      "204",
      "400",
      "401",
      "403",
      "404",
      "413",
      "414",
      "415",
      "422",
      "429",
      "431",
      "500",
      "503",
    ]),
  );
  expect(remove.responses["429"]!.headers).toHaveProperty("retry-after");
  // A read takes no body and is not refused by Origin; a session route refuses an API token
  // outside its scopes (403), a route for keys does not.
  const list = doc.paths["/api/products"]!.get!;
  expect(statuses(list)).not.toContain("413");
  expect(statuses(list)).toContain("403");
  expect(statuses(doc.paths["/api/extension/me"]!.get!)).not.toContain("403");
  // The extension's routes take any origin.
  expect(statuses(doc.paths["/api/extension/ingest"]!.post!)).not.toContain("403");
  for (const { route, op } of operations(doc)) {
    for (const status of ["400", "429", "431", "500", "503"]) {
      const schema = op.responses[status]?.content?.["application/json"]?.schema;
      expect({ route, status, schema }).toEqual({
        route,
        status,
        schema: objectContaining({ required: ["error"], additionalProperties: false }),
      });
    }
  }
});

test("query and body fields that have a default are optional, as the validator treats them", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const query = doc.paths["/api/products"]!.get!.parameters!.filter((p) => p.in === "query");
  expect(query.filter((p) => p.required).map((p) => p.name)).toEqual([]);
  expect(
    doc.paths["/api/import/url"]!.post!.requestBody!.content["application/json"]!.schema.required,
  ).toEqual(["urls"]);
  // A client that leaves them out gets the defaults.
  const t = await createTestOrg(gw.db, "openapi-defaults");
  const res = await gw.app.inject({
    method: "GET",
    url: "/api/products",
    headers: { cookie: await login(gw.app, t.member.email, t.member.password) },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ page: 1, pageSize: 25 });
});

test("a document import's multipart form is documented: persist, currency, encoding, mapping, then the file", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  const form =
    doc.paths["/api/import/document"]!.post!.requestBody!.content["multipart/form-data"]!.schema;
  expect(Object.keys(form.properties!)).toEqual([
    "persist",
    "currency",
    "encoding",
    "mapping",
    "file",
  ]);
  expect(form.properties!.file).toMatchObject({ type: "string", format: "binary" });
});
