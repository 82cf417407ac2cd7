import { createTestOrg, type TestOrg } from "@catalog/testing";
import type { CreatedExtensionKey, ExtensionKeyList } from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";

let gw: Gateway;
let t: TestOrg;
let other: TestOrg;
let owner: string;
let member: string;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "keys");
  other = await createTestOrg(gw.db, "keys-other");
  owner = await login(gw.app, t.owner.email, t.owner.password);
  member = await login(gw.app, t.member.email, t.member.password);
});
afterAll(() => gw.close());

const list = (cookie: string) =>
  gw.app.inject({ method: "GET", url: "/api/extension-keys", headers: { cookie } });
const create = (cookie: string, payload: object) =>
  gw.app.inject({ method: "POST", url: "/api/v1/extension-keys", headers: { cookie }, payload });
const revoke = (cookie: string, id: string) =>
  gw.app.inject({ method: "DELETE", url: `/api/extension-keys/${id}`, headers: { cookie } });
const ingest = (key: string) =>
  gw.app.inject({
    method: "POST",
    url: "/api/extension/ingest",
    headers: { "x-service-api-key": key },
    payload: { url: "https://shop.example/lamp", product: { title: "Desk lamp" } },
  });

test("an owner creates a key: its secret is shown once, works at the extension's route, and the list shows it used", async () => {
  const res = await create(owner, { name: "Ana's laptop" });
  expect(res.statusCode).toBe(201);
  expect(res.headers["cache-control"]).toBe("no-store");
  const created = res.json<CreatedExtensionKey>();
  expect(created.key).toMatchObject({ name: "Ana's laptop", lastUsedAt: null, revokedAt: null });
  expect(created.secret.startsWith(`csk_${created.key.prefix}_`)).toBe(true);

  const before = (await list(member)).json<ExtensionKeyList>();
  expect(before.items[0]).toEqual(created.key);
  expect(JSON.stringify(before)).not.toContain(created.secret);

  expect((await ingest(created.secret)).statusCode).toBe(200);
  const after = (await list(member)).json<ExtensionKeyList>();
  expect(after.items.find((k) => k.id === created.key.id)?.lastUsedAt).toEqual(expect.any(String));
});

test("revoking a key stops it at once; it stays listed as revoked; revoking again is 404", async () => {
  const { key, secret } = (await create(owner, { name: "old phone" })).json<CreatedExtensionKey>();
  expect((await ingest(secret)).statusCode).toBe(200);
  const res = await revoke(owner, key.id);
  expect(res.statusCode).toBe(204);
  expect(res.body).toBe("");
  const refused = await ingest(secret);
  expect(refused.statusCode).toBe(401);
  expect(errorOf(refused)).toMatch(/revoked API key/);
  const listed = (await list(owner)).json<ExtensionKeyList>().items.find((k) => k.id === key.id);
  expect(listed?.revokedAt).toEqual(expect.any(String));
  expect((await revoke(owner, key.id)).statusCode).toBe(404);
});

test("members see the keys but cannot create or revoke them", async () => {
  const { key } = (await create(owner, { name: "shared" })).json<CreatedExtensionKey>();
  expect((await list(member)).statusCode).toBe(200);
  const made = await create(member, { name: "mine" });
  expect(made.statusCode).toBe(403);
  expect(errorOf(made)).toMatch(/owner of the org/);
  expect((await revoke(member, key.id)).statusCode).toBe(403);
  const admin = await login(gw.app, t.admin.email, t.admin.password);
  expect((await create(admin, { name: "operator" })).statusCode).toBe(403);
});

test("another org's keys are invisible and cannot be revoked (404); bad input is 422; no session is 401", async () => {
  const otherOwner = await login(gw.app, other.owner.email, other.owner.password);
  const { key } = (await create(owner, { name: "ours" })).json<CreatedExtensionKey>();
  const theirs = (await list(otherOwner)).json<ExtensionKeyList>();
  expect(theirs.items.map((k) => k.id)).not.toContain(key.id);
  expect((await revoke(otherOwner, key.id)).statusCode).toBe(404);
  expect((await revoke(owner, "not-a-key")).statusCode).toBe(404);
  expect(
    (await list(owner)).json<ExtensionKeyList>().items.find((k) => k.id === key.id)?.revokedAt,
  ).toBeNull();

  expect((await create(owner, { name: "" })).statusCode).toBe(422);
  expect(errorOf(await create(owner, {}))).toMatch(/name/);
  expect((await create(owner, { name: "x", extra: 1 })).statusCode).toBe(422);
  expect((await gw.app.inject({ method: "GET", url: "/api/extension-keys" })).statusCode).toBe(401);
});
