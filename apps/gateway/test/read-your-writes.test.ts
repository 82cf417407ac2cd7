import { openChangeFeed } from "@catalog/db";
import { escapeGlob, unlinkMatching } from "@catalog/queue";
import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import type { ChangeFeedOpener } from "../src/plugins/read-caches.js";
import { eventually } from "./eventually.js";
import { login, startGateway, unreachableRedis, type Gateway } from "./harness.js";
import type { DocumentImportResult } from "../src/api-types.js";

/**
 * The real change feed (connected, so the caches are on), except that its notifications never
 * arrive, as from a LISTEN connection that lags behind: what the gateways answer here must not
 * depend on it.
 */
const laggingFeed: ChangeFeedOpener = (handlers) =>
  openChangeFeed(process.env.DATABASE_URL!, { ...handlers, onChange: () => {} });

describe("two gateway instances whose change feed lags", () => {
  let a: Gateway;
  let b: Gateway;
  let t: TestOrg;
  let cookie: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startGateway({}, { changeFeed: laggingFeed }),
      startGateway({}, { changeFeed: laggingFeed }),
    ]);
    t = await createTestOrg(a.db, "read-your-writes");
    cookie = await login(a.app, t.member.email, t.member.password);
    // The caches are on only while the feed is connected.
    await eventually(
      async () => expect(a.app.caches.catalog.enabled && b.app.caches.catalog.enabled).toBe(true),
      5000,
    );
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  const search = async (gw: Gateway, q: string) => {
    const res = await gw.app.inject({
      method: "GET",
      url: `/api/products?q=${encodeURIComponent(q)}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ total: number; items: { title: string }[] }>();
  };

  test("B answers repeated reads from memory: a change made behind the gateways' back waits for the feed", async () => {
    await makeProduct(a.db, t.org.id, { title: "ryw-cached", sku: "RYW-CACHED" });
    // The first read of a new org starts its catalog version and is not kept; the second is.
    expect((await search(b, "RYW-CACHED")).items.map((i) => i.title)).toEqual(["ryw-cached"]);
    expect((await search(b, "RYW-CACHED")).items.map((i) => i.title)).toEqual(["ryw-cached"]);
    await a.db.product.updateMany({
      where: { orgId: t.org.id, sku: "RYW-CACHED" },
      data: { title: "ryw-cached-sql" },
    });
    // Held here; with the feed connected it arrives within milliseconds (read-caches.test.ts).
    expect((await search(b, "RYW-CACHED")).items.map((i) => i.title)).toEqual(["ryw-cached"]);
  });

  test("an edit through A is in B's next listing", async () => {
    const p = await makeProduct(a.db, t.org.id, { title: "ryw-edit", sku: "RYW-EDIT" });
    // Twice, so the second answer comes from B's cache.
    expect((await search(b, "RYW-EDIT")).items.map((i) => i.title)).toEqual(["ryw-edit"]);
    expect((await search(b, "RYW-EDIT")).items.map((i) => i.title)).toEqual(["ryw-edit"]);
    const edit = await a.app.inject({
      method: "PATCH",
      url: `/api/products/${p.id}`,
      headers: { cookie },
      payload: { title: "ryw-edited" },
    });
    expect(edit.statusCode).toBe(200);
    expect((await search(b, "RYW-EDIT")).items.map((i) => i.title)).toEqual(["ryw-edited"]);
  });

  test("a persisted document import through A is found on B by its SKU", async () => {
    expect((await search(b, "RYW-DOC-1")).total).toBe(0);
    expect((await search(b, "RYW-DOC-1")).total).toBe(0);
    const form = new FormData();
    form.append("persist", "true");
    form.append(
      "file",
      new Blob(["Title,SKU,Price,Currency\nDoc import,RYW-DOC-1,5.00,EUR\n"], { type: "text/csv" }),
      "products.csv",
    );
    const imported = await a.app.inject({
      method: "POST",
      url: "/api/import/document",
      headers: { cookie },
      payload: form,
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json<DocumentImportResult>().summary).toMatchObject({ created: 1 });
    expect((await search(b, "RYW-DOC-1")).total).toBe(1);
  });

  test("a product deleted through A is gone from B's listing", async () => {
    const p = await makeProduct(a.db, t.org.id, { title: "ryw-delete", sku: "RYW-DEL" });
    expect((await search(b, "RYW-DEL")).total).toBe(1);
    expect((await search(b, "RYW-DEL")).total).toBe(1);
    expect(
      (await a.app.inject({ method: "DELETE", url: `/api/products/${p.id}`, headers: { cookie } }))
        .statusCode,
    ).toBe(204);
    expect((await search(b, "RYW-DEL")).total).toBe(0);
  });

  test("a session signed out on A is refused on B at once", async () => {
    const session = await login(a.app, t.member.email, t.member.password);
    const me = (gw: Gateway) =>
      gw.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie: session } });
    expect((await me(b)).statusCode).toBe(200);
    expect((await me(b)).statusCode).toBe(200);
    expect(
      (
        await a.app.inject({
          method: "DELETE",
          url: "/api/auth/session",
          headers: { cookie: session },
        })
      ).statusCode,
    ).toBe(204);
    expect((await me(b)).statusCode).toBe(401);
    expect(
      (await a.app.inject({ method: "GET", url: "/api/products", headers: { cookie: session } }))
        .statusCode,
    ).toBe(401);
    // The user's other session is still good.
    expect(
      (await b.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie } }))
        .statusCode,
    ).toBe(200);
  });

  test("a signed-out session stays refused when Redis loses the read caches' keys", async () => {
    const session = await login(a.app, t.member.email, t.member.password);
    const me = (gw: Gateway) =>
      gw.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie: session } });
    expect((await me(b)).statusCode).toBe(200);
    expect((await me(b)).statusCode).toBe(200);
    expect(
      (
        await a.app.inject({
          method: "DELETE",
          url: "/api/auth/session",
          headers: { cookie: session },
        })
      ).statusCode,
    ).toBe(204);
    // As a flush of the prefix would (flush_redis), limited to these keys so other test files keep
    // theirs.
    await unlinkMatching(a.redis, `${escapeGlob(a.config.redisKeyPrefix)}:read-cache:*`);
    expect((await me(b)).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(401);
  });

  test("an instance that cannot reach Redis answers from PostgreSQL, never from a stale cache", async () => {
    const unreachable = unreachableRedis();
    const c = await startGateway({}, { changeFeed: laggingFeed, redis: unreachable });
    try {
      await eventually(async () => expect(c.app.caches.catalog.enabled).toBe(true), 5000);
      const p = await makeProduct(a.db, t.org.id, { title: "ryw-offline", sku: "RYW-OFF" });
      expect((await search(c, "RYW-OFF")).items.map((i) => i.title)).toEqual(["ryw-offline"]);
      expect((await search(c, "RYW-OFF")).items.map((i) => i.title)).toEqual(["ryw-offline"]);
      const edit = await a.app.inject({
        method: "PATCH",
        url: `/api/products/${p.id}`,
        headers: { cookie },
        payload: { title: "ryw-offline-edited" },
      });
      expect(edit.statusCode).toBe(200);
      expect((await search(c, "RYW-OFF")).items.map((i) => i.title)).toEqual([
        "ryw-offline-edited",
      ]);
    } finally {
      await c.close();
    }
  });
});
