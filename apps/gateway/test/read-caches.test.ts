import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { ReadCache } from "../src/read-cache.js";
import { eventually } from "./eventually.js";
import { login, startGateway, type Gateway } from "./harness.js";
import type { List, ProductListItem } from "../src/api-types.js";

describe("two gateway instances on one database", () => {
  let a: Gateway;
  let b: Gateway;
  let t: TestOrg;
  let cookie: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([startGateway(), startGateway()]);
    t = await createTestOrg(a.db, "caches");
    cookie = await login(a.app, t.member.email, t.member.password);
    // Both instances must be listening before the changes these tests make.
    await eventually(
      async () => expect(a.app.caches.catalog.enabled && b.app.caches.catalog.enabled).toBe(true),
      5000,
    );
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  const titles = async (gw: Gateway) =>
    (await gw.app.inject({ method: "GET", url: "/api/products?q=cache-", headers: { cookie } }))
      .json<List<ProductListItem>>()
      .items.map((p) => p.title);

  test("a change made straight in the database (another process) shows in both, by the change feed", async () => {
    await makeProduct(a.db, t.org.id, { title: "cache-one", sku: "CACHE-1" });
    await eventually(async () => expect(await titles(b)).toEqual(["cache-one"]));
    await a.db.product.updateMany({
      where: { orgId: t.org.id, sku: "CACHE-1" },
      data: { title: "cache-one-sql" },
    });
    await eventually(async () => expect(await titles(b)).toEqual(["cache-one-sql"]));
  });
});

describe("ReadCache", () => {
  const enabled = <V>(maxEntries = 10) => {
    const cache = new ReadCache<V>({ maxEntries, maxAgeMs: 60_000 });
    cache.enabled = true;
    return cache;
  };

  test("a load that was in flight when its group was invalidated is not kept", async () => {
    const cache = enabled<string>();
    let release!: () => void;
    const slow = cache.getOrLoad(
      "org",
      "k",
      "v1",
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve("old");
        }),
    );
    cache.invalidate("org");
    release();
    expect(await slow).toBe("old");
    expect(await cache.getOrLoad("org", "k", "v1", async () => "new")).toBe("new");
  });

  test("when full, the entry read longest ago goes first", async () => {
    const cache = enabled<string>(2);
    const read = (key: string) => cache.getOrLoad("org", key, "v1", async () => `loaded ${key}`);
    await read("a");
    await read("b");
    await read("b"); // already the latest: stays so
    await read("a"); // now the latest
    await read("b");
    await read("a");
    await read("c"); // full: b, read longest ago, goes
    expect([cache.peek("org", "a"), cache.peek("org", "b"), cache.peek("org", "c")]).toEqual([
      "loaded a",
      undefined,
      "loaded c",
    ]);
  });

  test("an entry serves only reads that bring its stamp; an unknown (null) stamp always loads", async () => {
    const cache = enabled<string>();
    expect(await cache.getOrLoad("org", "k", "v1", async () => "first")).toBe("first");
    expect(await cache.getOrLoad("org", "k", "v1", async () => "again")).toBe("first");
    expect(await cache.getOrLoad("org", "k", "v2", async () => "after a write")).toBe(
      "after a write",
    );
    expect(await cache.getOrLoad("org", "k", null, async () => "from the database")).toBe(
      "from the database",
    );
    expect(await cache.getOrLoad("org", "k", "v2", async () => "again")).toBe("after a write");
  });

  test("a load under an older stamp is not shared with a read that brings a newer one", async () => {
    const cache = enabled<string>();
    let release!: () => void;
    const before = cache.getOrLoad(
      "org",
      "k",
      "v1",
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve("before");
        }),
    );
    const after = cache.getOrLoad("org", "k", "v2", async () => "after");
    release();
    expect([await before, await after]).toEqual(["before", "after"]);
  });

  test("invalidating one group keeps the others; the oldest entry goes first when full", async () => {
    const cache = enabled<string>(2);
    await cache.getOrLoad("a", "1", "v1", async () => "a1");
    await cache.getOrLoad("b", "1", "v1", async () => "b1");
    cache.invalidate("a");
    expect(await cache.getOrLoad("a", "1", "v1", async () => "a1'")).toBe("a1'");
    expect(await cache.getOrLoad("b", "1", "v1", async () => "b1'")).toBe("b1");
    await cache.getOrLoad("c", "1", "v1", async () => "c1");
    expect(await cache.getOrLoad("a", "1", "v1", async () => "evicted")).toBe("evicted");
  });

  test("an entry whose own expiry has passed is not kept, and a disabled cache always loads", async () => {
    const cache = enabled<string>();
    await cache.getOrLoad(
      "s",
      "t",
      "v1",
      async () => "expired",
      () => Date.now() - 1,
    );
    expect(await cache.getOrLoad("s", "t", "v1", async () => "fresh")).toBe("fresh");
    cache.enabled = false;
    expect(await cache.getOrLoad("s", "t", "v1", async () => "db")).toBe("db");
  });
});

test("concurrent misses for one key share one load", async () => {
  const cache = new ReadCache<number>({ maxEntries: 10, maxAgeMs: 60_000 });
  cache.enabled = true;
  let loads = 0;
  const load = async () => {
    loads += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return loads;
  };
  const values = await Promise.all(
    [1, 2, 3, 4].map(() => cache.getOrLoad("org", "page", "v1", load)),
  );
  expect(values).toEqual([1, 1, 1, 1]);
  expect(loads).toBe(1);
});

test("the size bound evicts the oldest entries", async () => {
  const cache = new ReadCache<string>({
    maxEntries: 100,
    maxAgeMs: 60_000,
    maxSize: 10,
    sizeOf: (v) => v.length,
  });
  cache.enabled = true;
  await cache.getOrLoad("org", "a", "v1", async () => "aaaaa");
  await cache.getOrLoad("org", "b", "v1", async () => "bbbbb");
  await cache.getOrLoad("org", "c", "v1", async () => "ccccc");
  expect(await cache.getOrLoad("org", "c", "v1", async () => "reloaded")).toBe("ccccc");
  expect(await cache.getOrLoad("org", "b", "v1", async () => "reloaded")).toBe("bbbbb");
  expect(await cache.getOrLoad("org", "a", "v1", async () => "reloaded")).toBe("reloaded");
});
