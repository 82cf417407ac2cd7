import { createTestOrg, type TestOrg } from "@catalog/testing";
import { revokeApiKey, createApiKey } from "@catalog/db";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { anyOf } from "@catalog/test-support/matchers";

let gw: Gateway;
let t: TestOrg;

beforeAll(async () => {
  gw = await startGateway();
  t = await createTestOrg(gw.db, "system");
});
afterAll(() => gw.close());

describe("/api/system", () => {
  // It spans every org, so it is the platform operator's (role admin) alone: an org's own owner
  // is refused like its members.
  test.each(["member", "owner"] as const)(
    "without a session GET and POST are 401; for an org's %s 403",
    async (role) => {
      expect((await gw.app.inject({ method: "GET", url: "/api/system" })).statusCode).toBe(401);
      expect(
        (
          await gw.app.inject({
            method: "POST",
            url: "/api/system",
            payload: { action: "purge_dlq" },
          })
        ).statusCode,
      ).toBe(401);
      const cookie = await login(gw.app, t[role].email, t[role].password);
      const read = await gw.app.inject({ method: "GET", url: "/api/system", headers: { cookie } });
      expect(read.statusCode).toBe(403);
      expect(errorOf(read)).toMatch(/platform operator only/);
      const act = await gw.app.inject({
        method: "POST",
        url: "/api/v1/system",
        headers: { cookie },
        payload: { action: "purge_dlq" },
      });
      expect(act.statusCode).toBe(403);
      expect(errorOf(act)).toMatch(/platform operator only/);
    },
  );

  test("the operator gets Redis and database health", async () => {
    const admin = await login(gw.app, t.admin.email, t.admin.password);
    const res = await gw.app.inject({
      method: "GET",
      url: "/api/v1/system",
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    // The run's database is shared with other files, whose destinations appear here (every org's):
    // the contents are tested in system-publishing.test.ts, on a database of its own.
    expect(res.json()).toMatchObject({
      redis: { ok: true },
      database: { ok: true },
      queues: anyOf(Array),
      dlq: { total: anyOf(Number) },
      breakers: anyOf(Array),
    });
  });

  test("POST for the operator: flush_redis needs lab mode, unknown actions are 422", async () => {
    const admin = await login(gw.app, t.admin.email, t.admin.password);
    const flush = await gw.app.inject({
      method: "POST",
      url: "/api/system",
      headers: { cookie: admin },
      payload: { action: "flush_redis" },
    });
    expect(flush.statusCode).toBe(403);
    expect(errorOf(flush)).toMatch(/lab mode/);
    const unknown = await gw.app.inject({
      method: "POST",
      url: "/api/system",
      headers: { cookie: admin },
      payload: { action: "reboot" },
    });
    expect(unknown.statusCode).toBe(422);
    expect(errorOf(unknown)).toMatch(/"action"/);
  });
});

describe("/api/extension/ingest API keys", () => {
  const ingest = (key?: string) =>
    gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: key === undefined ? {} : { "x-service-api-key": key },
      payload: { url: "https://shop.example/p" },
    });

  test("no key, an unknown key, or a session cookie instead of a key is 401", async () => {
    expect((await ingest()).statusCode).toBe(401);
    const unknown = await ingest("csk_nothing_here");
    expect(unknown.statusCode).toBe(401);
    expect(errorOf(unknown)).toMatch(/x-service-api-key/);
    const cookie = await login(gw.app, t.member.email, t.member.password);
    const withCookie = await gw.app.inject({
      method: "POST",
      url: "/api/extension/ingest",
      headers: { cookie },
      payload: { url: "https://shop.example/p" },
    });
    expect(withCookie.statusCode).toBe(401);
  });

  test("a valid key gets past auth; once revoked it is 401", async () => {
    const created = await createApiKey(gw.db, t.org.id, "to-revoke");
    expect((await ingest(created.key)).statusCode).toBe(422);
    await revokeApiKey(gw.db, t.org.id, created.id);
    expect((await ingest(created.key)).statusCode).toBe(401);
  });

  test("keys are stored only as hashes", async () => {
    const rows = await gw.db.apiKey.findMany({ where: { orgId: t.org.id } });
    expect(rows.some((r) => r.keyHash === t.apiKey || t.apiKey.includes(r.keyHash))).toBe(false);
  });
});
