import { randomBytes } from "node:crypto";
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { TOKEN_SCOPES } from "../src/plugins/token-scopes.js";
import { anyOf } from "@catalog/test-support/matchers";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import type { OpenApiDocument } from "./openapi-document.js";

let gw: Gateway;
let t: TestOrg;
let ownerCookie: string;
let memberCookie: string;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "tokens");
  ownerCookie = await login(gw.app, t.owner.email, t.owner.password);
  memberCookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

async function createToken(
  scopes: string[],
  extra: Record<string, unknown> = {},
  app = gw.app,
  cookie = ownerCookie,
) {
  const res = await app.inject({
    method: "POST",
    url: "/api/api-tokens",
    headers: { cookie },
    payload: { name: `token ${randomBytes(2).toString("hex")}`, scopes, ...extra },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ token: { id: string }; secret: string }>();
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

test("an owner creates a token shown once; it is listed with its scopes and last use, never the secret", async () => {
  const created = await gw.app.inject({
    method: "POST",
    url: "/api/api-tokens",
    headers: { cookie: ownerCookie },
    payload: { name: "ERP sync", scopes: ["catalog:read"] },
  });
  expect(created.statusCode).toBe(201);
  expect(created.headers["cache-control"]).toBe("no-store");
  const { token, secret } = created.json<{
    token: { id: string; prefix: string };
    secret: string;
  }>();
  expect(secret).toMatch(new RegExp(`^cat_${token.prefix}_[\\w-]{43}$`));
  // Only the hash is stored.
  const row = await gw.db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
  expect(JSON.stringify(row)).not.toContain(secret);

  expect(
    (await gw.app.inject({ method: "GET", url: "/api/products", headers: bearer(secret) }))
      .statusCode,
  ).toBe(200);
  const list = await gw.app.inject({
    method: "GET",
    url: "/api/api-tokens",
    headers: { cookie: ownerCookie },
  });
  expect(list.statusCode).toBe(200);
  expect(list.body).not.toContain(secret);
  const listed = list
    .json<{ items: Record<string, unknown>[] }>()
    .items.find((item) => item.id === token.id);
  expect(listed).toMatchObject({
    name: "ERP sync",
    scopes: ["catalog:read"],
    createdBy: t.owner.email,
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: anyOf(String),
  });
});

test("last use is written at most once a minute per token, not on every request", async () => {
  const { token, secret } = await createToken(["catalog:read"]);
  const read = () =>
    gw.app.inject({ method: "GET", url: "/api/products", headers: bearer(secret) });
  await read();
  const first = (await gw.db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).lastUsedAt;
  expect(first).not.toBeNull();
  await read();
  await read();
  const after = (await gw.db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).lastUsedAt;
  expect(after?.getTime()).toBe(first?.getTime());
});

test("a member, the operator and a token cannot create, list or revoke tokens", async () => {
  const adminCookie = await login(gw.app, t.admin.email, t.admin.password);
  for (const cookie of [memberCookie, adminCookie]) {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/api-tokens",
      headers: { cookie },
      payload: { name: "mine", scopes: ["catalog:read"] },
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatch(/owner/);
  }
  expect(await gw.db.apiToken.count({ where: { orgId: t.org.id, name: "mine" } })).toBe(0);
  const { secret } = await createToken([
    "catalog:read",
    "catalog:write",
    "publish",
    "destinations:manage",
  ]);
  for (const [method, url] of [
    ["GET", "/api/api-tokens"],
    ["POST", "/api/api-tokens"],
  ] as const) {
    const res = await gw.app.inject({
      method,
      url,
      headers: bearer(secret),
      ...(method === "POST" ? { payload: { name: "minted", scopes: ["publish"] } } : {}),
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatch(
      /API tokens cannot use .*\/api-tokens: it needs a signed-in session/,
    );
  }
});

test("bad input to create is a 422 naming the field, and nothing is stored", async () => {
  const before = await gw.db.apiToken.count({ where: { orgId: t.org.id } });
  for (const payload of [
    { name: "x", scopes: [] },
    { name: "x", scopes: ["catalog:delete"] },
    { name: "x", scopes: ["publish"], expiresAt: new Date(Date.now() - 1000).toISOString() },
    { name: "", scopes: ["publish"] },
  ]) {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/api-tokens",
      headers: { cookie: ownerCookie },
      payload,
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/scopes|expiresAt|name/);
  }
  expect(await gw.db.apiToken.count({ where: { orgId: t.org.id } })).toBe(before);
});

test("a route outside the token's scopes is 403 naming the scope; session-only routes are 403 too", async () => {
  const { secret } = await createToken(["catalog:read"]);
  const product = await makeProduct(gw.db, t.org.id, { title: "Scoped", sku: "SCOPED-1" });
  const edit = await gw.app.inject({
    method: "PATCH",
    url: `/api/v1/products/${product.id}`,
    headers: bearer(secret),
    payload: { title: "Changed" },
  });
  expect(edit.statusCode).toBe(403);
  expect(errorOf(edit)).toMatch(
    /lacks the scope catalog:write, which PATCH \/api\/v1\/products\/:id needs/,
  );
  expect((await gw.db.product.findUniqueOrThrow({ where: { id: product.id } })).title).toBe(
    "Scoped",
  );
  const dests = await gw.app.inject({
    method: "GET",
    url: "/api/destinations",
    headers: bearer(secret),
  });
  expect(dests.statusCode).toBe(403);
  expect(errorOf(dests)).toMatch(/publish or destinations:manage/);
  for (const url of ["/api/webhooks", "/api/system", "/api/legal/status", "/api/extension-keys"]) {
    const res = await gw.app.inject({ method: "GET", url, headers: bearer(secret) });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatch(/needs a signed-in session/);
  }
});

test("a revoked, expired, made-up or demoted creator's token is 401; no credential is 401; the cookie still works", async () => {
  const revoked = await createToken(["catalog:read"]);
  const expired = await createToken(["catalog:read"], {
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
  });
  const read = (headers: Record<string, string>) =>
    gw.app.inject({ method: "GET", url: "/api/products", headers });
  expect((await read(bearer(revoked.secret))).statusCode).toBe(200);
  expect((await read(bearer(expired.secret))).statusCode).toBe(200);

  const revoke = await gw.app.inject({
    method: "DELETE",
    url: `/api/api-tokens/${revoked.token.id}`,
    headers: { cookie: ownerCookie },
  });
  expect(revoke.statusCode).toBe(204);
  // The next request, here and on a second gateway, is refused: there is no auth cache to expire.
  const other = await startGateway();
  try {
    for (const app of [gw.app, other.app]) {
      const res = await app.inject({
        method: "GET",
        url: "/api/products",
        headers: bearer(revoked.secret),
      });
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toMatch(/unknown, expired or revoked API token/);
    }
  } finally {
    await other.close();
  }
  await gw.db.apiToken.update({
    where: { id: expired.token.id },
    data: { expiresAt: new Date(Date.now() - 1) },
  });
  expect((await read(bearer(expired.secret))).statusCode).toBe(401);
  expect((await read(bearer(`cat_AAAAAAAA_${"x".repeat(43)}`))).statusCode).toBe(401);
  expect((await read(bearer("not-a-token"))).statusCode).toBe(401);
  expect((await read({})).statusCode).toBe(401);
  // A bad bearer is refused even beside a valid cookie: the token is the request's credential.
  expect((await read({ ...bearer("not-a-token"), cookie: ownerCookie })).statusCode).toBe(401);
  expect((await read({ cookie: memberCookie })).statusCode).toBe(200);

  // A token acts as the owner who made it: once that user is no longer an owner, it stops.
  const o2 = await createTestOrg(gw.db, "demoted");
  const o2Cookie = await login(gw.app, o2.owner.email, o2.owner.password);
  const demoted = await createToken(["catalog:read"], {}, gw.app, o2Cookie);
  expect((await read(bearer(demoted.secret))).statusCode).toBe(200);
  await gw.db.user.update({ where: { id: o2.owner.id }, data: { role: "member" } });
  expect((await read(bearer(demoted.secret))).statusCode).toBe(401);

  // Revoking again, or another org's token, is 404.
  for (const id of [revoked.token.id, demoted.token.id]) {
    const again = await gw.app.inject({
      method: "DELETE",
      url: `/api/api-tokens/${id}`,
      headers: { cookie: ownerCookie },
    });
    expect(again.statusCode).toBe(404);
  }
});

test("each token has its own rate-limit budget; a made-up token counts against its address", async () => {
  const limited = await startGateway({
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:${randomBytes(3).toString("hex")}`,
    RATE_LIMIT_MAX: "6",
  });
  try {
    const cookie = await login(limited.app, t.owner.email, t.owner.password); // 1 (address)
    const a = await createToken(["catalog:read"], {}, limited.app, cookie); // 2
    const b = await createToken(["catalog:read"], {}, limited.app, cookie); // 3
    const get = (headers: Record<string, string>) =>
      limited.app.inject({ method: "GET", url: "/api/products", headers });
    const codesA: number[] = [];
    for (let i = 0; i < 7; i++) codesA.push((await get(bearer(a.secret))).statusCode);
    expect(codesA).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const spent = await get(bearer(a.secret));
    expect(errorOf(spent)).toMatch(/this service's rate limit/);
    // Token b and the address (the owner's cookie) each still have theirs.
    expect((await get(bearer(b.secret))).statusCode).toBe(200);
    expect((await get({ cookie })).statusCode).toBe(200); // 4
    // Made-up tokens get no fresh budget: they spend the address's.
    const fake = () => get(bearer(`cat_AAAAAAAA_${randomBytes(32).toString("base64url")}`));
    expect((await fake()).statusCode).toBe(401); // 5
    expect((await fake()).statusCode).toBe(401); // 6
    expect((await fake()).statusCode).toBe(429);
    expect((await get({ cookie })).statusCode).toBe(429);
  } finally {
    await limited.close();
  }
});

test("the OpenAPI document has the bearer scheme and lists, per operation, the scopes that open it", async () => {
  const doc = (await gw.app.inject({ method: "GET", url: "/docs/json" })).json<OpenApiDocument>();
  expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: "http", scheme: "bearer" });
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  expect(byId.get("listProducts")?.security).toEqual([
    { session: [] },
    { apiToken: ["catalog:read"] },
  ]);
  expect(byId.get("listDestinationsV1")?.security).toEqual([
    { session: [] },
    { apiToken: ["publish"] },
    { apiToken: ["destinations:manage"] },
  ]);
  expect(byId.get("createApiToken")?.security).toEqual([{ session: [] }]);
  expect(byId.get("listProducts")?.responses["403"]).toBeDefined();
  // Every entry of the table names an operation that exists and that a session opens.
  for (const id of Object.keys(TOKEN_SCOPES)) {
    expect(byId.get(id)?.security).toContainEqual({ session: [] });
  }
});
