import {
  createTestOrg,
  eventually,
  makeProduct,
  meetOnRows,
  withApplicationName,
  type TestOrg,
} from "@catalog/testing";
import { createDb, recordFinalFailure, recordSuccess, startAttempt, type Db } from "@catalog/db";
import type {
  HistoryEntry,
  List,
  Product,
  ProductListItem,
  PublishResponse,
} from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin } from "./publishing-fixtures.js";

type ProductList = List<ProductListItem>;

const APPLICATION = `products-${process.pid}`;

let gw: Gateway;
/** The test's own client, apart from the gateway's sessions (which carry APPLICATION). */
let holder: Db;
let t: TestOrg;
let cookie: string;

beforeAll(async () => {
  gw = await startGateway({
    DATABASE_URL: withApplicationName(process.env.DATABASE_URL!, APPLICATION),
  });
  holder = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
  t = await createTestOrg(gw.db, "products");
  cookie = await login(gw.app, t.member.email, t.member.password);
});
afterAll(async () => {
  await gw.close();
  await holder.$disconnect();
});

const get = (url: string, c = cookie) =>
  gw.app.inject({ method: "GET", url, headers: { cookie: c } });
const patch = (url: string, payload: object, c = cookie) =>
  gw.app.inject({ method: "PATCH", url, headers: { cookie: c }, payload });

describe("listing", () => {
  let org: TestOrg;
  let orgCookie: string;

  beforeAll(async () => {
    org = await createTestOrg(gw.db, "listing");
    orgCookie = await login(gw.app, org.member.email, org.member.password);
    for (let i = 1; i <= 30; i++) {
      await makeProduct(gw.db, org.org.id, {
        title: `Item ${String(i).padStart(2, "0")}`,
        sku: `LIST-${i}`,
      });
    }
    await makeProduct(gw.db, org.org.id, { title: "Blue Cotton T-Shirt", sku: "TEE-BLUE-M" });
    await makeProduct(gw.db, org.org.id, { title: "Red Wool Scarf", sku: "SCARF-9000" });
    await makeProduct(gw.db, org.org.id, { title: "100% Wool Hat", sku: "HAT_1" });
  });

  test("pagination defaults to page 1 of 25, newest first, with totals", async () => {
    const res = await get("/api/products", orgCookie);
    expect(res.statusCode).toBe(200);
    const body = res.json<ProductList>();
    expect(body).toMatchObject({ page: 1, pageSize: 25, total: 33, totalPages: 2 });
    expect(body.items).toHaveLength(25);
    expect(body.items[0]!.title).toBe("100% Wool Hat");
    const times = body.items.map((p) => p.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test("later pages hold the rest, and a page past the end is empty", async () => {
    const page2 = (await get("/api/products?page=2&pageSize=25", orgCookie)).json<ProductList>();
    expect(page2.items).toHaveLength(8);
    const page1 = (await get("/api/products?page=1&pageSize=25", orgCookie)).json<ProductList>();
    const ids = new Set([...page1.items, ...page2.items].map((p) => p.id));
    expect(ids.size).toBe(33);
    const past = (await get("/api/products?page=9", orgCookie)).json<ProductList>();
    expect(past).toMatchObject({ items: [], page: 9, total: 33 });
  });

  test.each([
    ["pageSize=0", /"pageSize" must be >= 1/],
    ["pageSize=101", /"pageSize" must be <= 100/],
    ["page=0", /"page" must be >= 1/],
    ["page=abc", /"page" must be integer/],
    ["page=1.5", /"page" must be integer/],
    ["order=title", /"order" is not accepted/],
  ])("%s is 422 naming the field", async (query, message) => {
    const res = await get(`/api/products?${query}`, orgCookie);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(message);
  });

  test("q matches titles as a substring in any case", async () => {
    const body = (await get("/api/products?q=wOoL", orgCookie)).json<ProductList>();
    expect(body.items.map((p) => p.title).sort()).toEqual(["100% Wool Hat", "Red Wool Scarf"]);
    expect(body.total).toBe(2);
  });

  test("q matches SKUs as a substring in any case", async () => {
    const body = (await get("/api/products?q=tee-blue", orgCookie)).json<ProductList>();
    expect(body.items.map((p) => p.sku)).toEqual(["TEE-BLUE-M"]);
  });

  test("q treats LIKE wildcards literally", async () => {
    expect((await get("/api/products?q=100%25", orgCookie)).json<ProductList>().total).toBe(1);
    expect((await get("/api/products?q=HAT_", orgCookie)).json<ProductList>().total).toBe(1);
    expect((await get("/api/products?q=%25", orgCookie)).json<ProductList>().total).toBe(1);
  });

  test("a q longer than 200 characters is 422", async () => {
    const res = await get(`/api/products?q=${"x".repeat(201)}`, orgCookie);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/"q"/);
  });

  test("another org's products never appear", async () => {
    const body = (await get("/api/products?pageSize=100", cookie)).json<ProductList>();
    expect(body.items.some((p) => p.sku?.startsWith("LIST-"))).toBe(false);
  });
});

describe("one product", () => {
  test("detail answers the catalog fields, price as money, and listings", async () => {
    const p = await makeProduct(gw.db, t.org.id, {
      title: "Desk Lamp",
      sku: "LAMP-1",
      price: { amount: "39.9", currency: "EUR" },
      images: ["https://img.example/lamp.jpg"],
      brand: "Lumo",
    });
    const res = await get(`/api/products/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: p.id,
      title: "Desk Lamp",
      sku: "LAMP-1",
      price: { amount: "39.90", currency: "EUR" },
      images: ["https://img.example/lamp.jpg"],
      brand: "Lumo",
      variants: [],
      attributes: {},
      listings: [],
      version: 1,
      source: "api",
    });
  });

  test("an edit changes the fields, bumps the version and writes one history entry with actor and diff", async () => {
    const p = await makeProduct(gw.db, t.org.id, {
      title: "Chair",
      sku: "CHAIR-1",
      price: { amount: "80.00", currency: "USD" },
    });
    const res = await patch(`/api/products/${p.id}`, {
      title: "Oak Chair",
      price: { amount: "85.50", currency: "USD" },
      brand: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      title: "Oak Chair",
      price: { amount: "85.50", currency: "USD" },
      version: 2,
    });

    const history = (await get(`/api/products/${p.id}/history`)).json<List<HistoryEntry>>();
    expect(history.total).toBe(2);
    expect(history.items[0]).toMatchObject({
      action: "updated",
      actor: { type: "user", id: t.member.id },
      changes: {
        title: { from: "Chair", to: "Oak Chair" },
        price: {
          from: { amount: "80.00", currency: "USD" },
          to: { amount: "85.50", currency: "USD" },
        },
      },
    });
    expect(Object.keys(history.items[0]!.changes).sort()).toEqual(["price", "title"]);
    expect(history.items[1]).toMatchObject({
      action: "created",
      actor: { type: "system", id: null },
    });
  });

  test("an edit that changes nothing writes no history and keeps the version", async () => {
    const p = await makeProduct(gw.db, t.org.id, { title: "Stool" });
    const res = await patch(`/api/products/${p.id}`, { title: "Stool" });
    expect(res.json<Product>().version).toBe(1);
    expect((await get(`/api/products/${p.id}/history`)).json<List<HistoryEntry>>().total).toBe(1);
  });

  test.each([
    [{ title: 123 }, /"title" must be string/],
    [{ title: "" }, /"title"/],
    [{ colour: "red" }, /"colour" is not accepted/],
    [{}, /body/],
    [{ price: { amount: "12,50", currency: "EUR" } }, /"price.amount"/],
    [{ price: { amount: "12.50", currency: "eur" } }, /"price.currency"/],
    [{ images: ["not a url"] }, /"images.0"/],
  ])("a bad edit %j is 422 naming the field and changes nothing", async (body, message) => {
    const p = await makeProduct(gw.db, t.org.id, { title: "Table" });
    const res = await patch(`/api/products/${p.id}`, body);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(message);
    expect((await get(`/api/products/${p.id}`)).json()).toMatchObject({
      title: "Table",
      version: 1,
    });
  });

  test("an edit against a stale version is 409", async () => {
    const p = await makeProduct(gw.db, t.org.id, { title: "Shelf" });
    expect(
      (await patch(`/api/products/${p.id}`, { title: "Shelf A", version: 1 })).statusCode,
    ).toBe(200);
    const stale = await patch(`/api/products/${p.id}`, { title: "Shelf B", version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale)).toMatch(/version 2/);
  });

  test("a SKU already used in the org is 409; the same SKU in another org is fine", async () => {
    await makeProduct(gw.db, t.org.id, { title: "Rug", sku: "RUG-1" });
    const other = await makeProduct(gw.db, t.org.id, { title: "Mat" });
    const res = await patch(`/api/products/${other.id}`, { sku: "RUG-1" });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatch(/SKU "RUG-1"/);
    const elsewhere = await createTestOrg(gw.db, "sku");
    await expect(
      makeProduct(gw.db, elsewhere.org.id, { title: "Rug", sku: "RUG-1" }),
    ).resolves.toMatchObject({ sku: "RUG-1" });
  });

  test("delete removes the product; its history stays readable with a deleted entry", async () => {
    const p = await makeProduct(gw.db, t.org.id, { title: "Vase", sku: "VASE-1" });
    const del = await gw.app.inject({
      method: "DELETE",
      url: `/api/products/${p.id}`,
      headers: { cookie },
    });
    expect(del.statusCode).toBe(204);
    expect((await get(`/api/products/${p.id}`)).statusCode).toBe(404);
    const again = await gw.app.inject({
      method: "DELETE",
      url: `/api/products/${p.id}`,
      headers: { cookie },
    });
    expect(again.statusCode).toBe(404);
    const history = (await get(`/api/products/${p.id}/history`)).json<List<HistoryEntry>>();
    expect(history.items[0]).toMatchObject({
      action: "deleted",
      actor: { type: "user", id: t.member.id },
      changes: { title: { from: "Vase", to: null }, sku: { from: "VASE-1", to: null } },
    });
  });

  test("concurrent deletes of one product: one 204, the others 404 as after it, and one deleted entry", async () => {
    const p = await makeProduct(gw.db, t.org.id, { title: "Raced", sku: "RACE-1" });
    // All three have read the product and wait on its row when it is let go.
    const deleting = () =>
      gw.app.inject({ method: "DELETE", url: `/api/products/${p.id}`, headers: { cookie } });
    const answers = await meetOnRows(
      {
        holder,
        application: APPLICATION,
        table: "products",
        lock: ["SELECT id FROM products WHERE id = $1::uuid FOR UPDATE", p.id],
      },
      [deleting, deleting, deleting],
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 404, 404]);
    for (const answer of answers.filter((a) => a.statusCode === 404))
      expect(errorOf(answer)).toBe(`product ${p.id} not found`);
    const history = (await get(`/api/products/${p.id}/history`)).json<List<HistoryEntry>>();
    expect(history.items.filter((entry) => entry.action === "deleted")).toHaveLength(1);
  });

  test("a malformed or unknown id is 404", async () => {
    expect((await get("/api/products/not-a-uuid")).statusCode).toBe(404);
    const res = await get("/api/products/00000000-0000-4000-8000-000000000000");
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatch(/product .* not found/);
  });
});

describe("tenancy", () => {
  test("another org's product is 404 for read, edit, delete and history, exactly like a missing one", async () => {
    const other = await createTestOrg(gw.db, "tenant");
    const theirs = await makeProduct(gw.db, other.org.id, { title: "Secret", sku: "SECRET-1" });
    const missing = "00000000-0000-4000-8000-000000000001";
    for (const id of [theirs.id, missing]) {
      const detail = await get(`/api/products/${id}`);
      const edit = await patch(`/api/products/${id}`, { title: "Mine now" });
      const del = await gw.app.inject({
        method: "DELETE",
        url: `/api/products/${id}`,
        headers: { cookie },
      });
      const history = await get(`/api/products/${id}/history`);
      expect([detail.statusCode, edit.statusCode, del.statusCode, history.statusCode]).toEqual([
        404, 404, 404, 404,
      ]);
      expect(errorOf(detail)).toBe(`product ${id} not found`);
    }
    const still = await gw.db.product.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(still.title).toBe("Secret");
  });
});

describe("authentication and versioning", () => {
  test("every product route is 401 without a session", async () => {
    const id = "00000000-0000-4000-8000-000000000002";
    for (const [method, url] of [
      ["GET", "/api/products"],
      ["GET", `/api/products/${id}`],
      ["PATCH", `/api/products/${id}`],
      ["DELETE", `/api/products/${id}`],
      ["GET", `/api/products/${id}/history`],
    ] as const) {
      const res = await gw.app.inject({
        method,
        url,
        ...(method === "PATCH" ? { payload: { title: "x" } } : {}),
      });
      expect(res.statusCode).toBe(401);
    }
  });

  test("/api/v1 serves the same routes with the same answers", async () => {
    const p = await makeProduct(gw.db, t.org.id, { title: "Versioned Lamp", sku: "V1-LAMP" });
    const plain = await get(`/api/products/${p.id}`);
    const v1 = await get(`/api/v1/products/${p.id}`);
    expect(v1.statusCode).toBe(200);
    expect(v1.json()).toEqual(plain.json());
    expect((await get("/api/v1/products?q=v1-lamp")).json<ProductList>().total).toBe(1);
    const edit = await patch(`/api/v1/products/${p.id}`, { brand: "V1" });
    expect(edit.json<Product>().brand).toBe("V1");
    expect((await gw.app.inject({ method: "GET", url: "/api/v1/products" })).statusCode).toBe(401);
  });
});

describe("each product in the list shows its listing status per destination", () => {
  let org: TestOrg;
  let orgCookie: string;
  let lamp: string;
  let chair: string;
  let stool: string;
  let main: string;
  let outlet: string;

  beforeAll(async () => {
    org = await createTestOrg(gw.db, "list-listings");
    orgCookie = await login(gw.app, org.member.email, org.member.password);
    lamp = (await makeProduct(gw.db, org.org.id, { title: "Listed lamp", sku: "LL-1" })).id;
    chair = (await makeProduct(gw.db, org.org.id, { title: "Listed chair", sku: "LC-1" })).id;
    stool = (await makeProduct(gw.db, org.org.id, { title: "Unlisted stool", sku: "US-1" })).id;
    main = (await connectStandin(gw, org.org.id, "Main")).id;
    outlet = (await connectStandin(gw, org.org.id, "Outlet")).id;
  });

  const listed = async (query = "") => {
    const body = (await get(`/api/products${query}`, orgCookie)).json<{
      items: ProductListItem[];
    }>();
    return Object.fromEntries(body.items.map((p) => [p.id, p.listings]));
  };

  test("a publish shows at once as queued listings, and the worker's outcome within about a second", async () => {
    expect((await listed())[lamp]).toEqual([]);
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/products/publish",
      headers: { cookie: orgCookie },
      payload: { productIds: [lamp, chair], destinationAccountIds: [main, outlet] },
    });
    expect(res.statusCode).toBe(200);
    const byId = await listed();
    expect(byId[lamp]).toEqual([
      { destinationAccountId: main, channel: "standin", status: "queued" },
      { destinationAccountId: outlet, channel: "standin", status: "queued" },
    ]);
    expect(byId[chair]).toHaveLength(2);
    expect(byId[stool]).toEqual([]);

    // The publish worker's side: one attempt succeeds, one fails for good.
    const { jobs } = res.json<PublishResponse>();
    const job = (p: string, d: string) =>
      jobs.find((j) => j.productId === p && j.destinationAccountId === d)!.syncLogId;
    const ok = (await startAttempt(gw.db, job(lamp, main), 60_000))!;
    await recordSuccess(gw.db, ok.syncLog, { remoteId: "r1", remoteUrl: null });
    const failed = (await startAttempt(gw.db, job(chair, outlet), 60_000))!;
    await recordFinalFailure(gw.db, failed.syncLog, "price is required", { status: "failed" });
    await eventually(async () => {
      const now = await listed("?q=listed");
      expect(now[lamp]!.map((l) => l.status)).toEqual(["published", "queued"]);
      expect(now[chair]!.map((l) => l.status)).toEqual(["queued", "failed"]);
      expect(now[stool]).toEqual([]);
    }, 3000);
    // A search page carries the listings of its own products.
    const chairOnly = await listed("?q=lc-1");
    expect(Object.keys(chairOnly)).toEqual([chair]);
    expect(chairOnly[chair]).toHaveLength(2);
  });
});
