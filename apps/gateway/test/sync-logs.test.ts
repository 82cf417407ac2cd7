import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { anyOf } from "@catalog/test-support/matchers";
import type { PublishJobRecord } from "@catalog/db";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix, queuePublishes } from "./publishing-fixtures.js";
import type { List, SyncLog, SyncLogList } from "../src/api-types.js";

let gw: Gateway;
let t: TestOrg;
let cookie: string;
let records: PublishJobRecord[];
let productIds: string[];
let destinationIds: string[];

beforeAll(async () => {
  gw = await startGateway({ REDIS_PREFIX: privatePrefix("sync-logs") });
  t = await createTestOrg(gw.db, "sync-logs");
  cookie = await login(gw.app, t.member.email, t.member.password);
  const products = [
    await makeProduct(gw.db, t.org.id, { title: "Mug" }),
    await makeProduct(gw.db, t.org.id, { title: "Plate" }),
  ];
  const destinations = [
    await connectStandin(gw, t.org.id, "shop A"),
    await connectStandin(gw, t.org.id, "shop B"),
  ];
  productIds = products.map((p) => p.id);
  destinationIds = destinations.map((d) => d.id);
  records = await queuePublishes(gw, t.org.id, productIds, destinationIds);
  // One publish ran out of attempts; one went through.
  await gw.db.syncLog.update({
    where: { id: records[0]!.syncLogId },
    data: { status: "dead", attempts: 5, error: "channel said 500" },
  });
  await gw.db.syncLog.update({
    where: { id: records[1]!.syncLogId },
    data: {
      status: "succeeded",
      attempts: 1,
      remoteId: "R-1",
      remoteUrl: "https://standin.example/R-1",
      startedAt: new Date(),
      finishedAt: new Date(),
    },
  });
});
afterAll(() => gw.close());

const get = (url: string, c = cookie) =>
  gw.app.inject({ method: "GET", url, headers: { cookie: c } });

test("without a session it is 401", async () => {
  expect((await gw.app.inject({ method: "GET", url: "/api/sync-logs" })).statusCode).toBe(401);
});

test("lists the org's sync logs in the list shape, each with every contract field", async () => {
  const res = await get("/api/sync-logs");
  expect(res.statusCode).toBe(200);
  const body = res.json<List<SyncLog>>();
  expect(body).toMatchObject({ page: 1, pageSize: 25, total: 4, totalPages: 1 });
  expect(body.items.map((s) => s.id).sort()).toEqual(records.map((r) => r.syncLogId).sort());
  const succeeded = body.items.find((s) => s.id === records[1]!.syncLogId)!;
  expect(Object.keys(succeeded).sort()).toEqual([
    "attempts",
    "createdAt",
    "destinationAccountId",
    "error",
    "failure",
    "finishedAt",
    "id",
    "jobId",
    "kind",
    "note",
    "productId",
    "remoteId",
    "remoteUrl",
    "runId",
    "startedAt",
    "status",
    "trigger",
  ]);
  expect(succeeded).toMatchObject({
    jobId: records[1]!.jobId,
    productId: records[1]!.productId,
    destinationAccountId: records[1]!.destinationAccountId,
    status: "succeeded",
    attempts: 1,
    error: null,
    remoteId: "R-1",
    remoteUrl: "https://standin.example/R-1",
  });
  expect(new Date(succeeded.finishedAt!).toISOString()).toBe(succeeded.finishedAt);
  const queued = body.items.find((s) => s.id === records[2]!.syncLogId);
  expect(queued).toMatchObject({
    status: "queued",
    attempts: 0,
    startedAt: null,
    finishedAt: null,
  });
});

test("brings the head of each run its entries belong to, once: what names the run", async () => {
  const body = (await get("/api/sync-logs")).json<SyncLogList>();
  const runIds = [...new Set(body.items.map((s) => s.runId))];
  expect(runIds).toHaveLength(1);
  expect(body.runs).toEqual([
    {
      id: runIds[0],
      createdAt: anyOf(String),
      createdBy: { type: "system", id: null, name: null },
      productCount: 2,
      destinationCount: 2,
      firstProductTitle: "Mug",
      destinationNames: ["shop A", "shop B"],
    },
  ]);
  // A page whose entries belong to no run (an automatic update) brings no head.
  const none = (await get("/api/sync-logs?kind=update")).json<SyncLogList>();
  expect(none).toMatchObject({ items: [], runs: [] });
});

test("filters by product, destination and status, alone or together", async () => {
  const ids = async (query: string) =>
    (await get(`/api/sync-logs?${query}`))
      .json<List<SyncLog>>()
      .items.map((s) => s.id)
      .sort();
  const expected = (pick: (r: PublishJobRecord) => boolean) =>
    records
      .filter(pick)
      .map((r) => r.syncLogId)
      .sort();
  expect(await ids(`productId=${productIds[0]}`)).toEqual(
    expected((r) => r.productId === productIds[0]),
  );
  expect(await ids(`destinationAccountId=${destinationIds[1]}`)).toEqual(
    expected((r) => r.destinationAccountId === destinationIds[1]),
  );
  expect(await ids("status=dead")).toEqual([records[0]!.syncLogId]);
  expect(await ids("status=queued")).toEqual(expected((r) => r !== records[0] && r !== records[1]));
  expect(await ids(`status=dead&destinationAccountId=${destinationIds[1]}`)).toEqual([]);
  // The parameter repeated: any of the states.
  expect(await ids("status=dead&status=succeeded")).toEqual(
    [records[0]!.syncLogId, records[1]!.syncLogId].sort(),
  );
  expect(
    await ids(`status=dead&status=failed&destinationAccountId=${records[0]!.destinationAccountId}`),
  ).toEqual([records[0]!.syncLogId]);
});

test("each log says its kind and trigger, and the list filters by kind", async () => {
  await gw.db.syncLog.update({
    where: { id: records[3]!.syncLogId },
    data: { kind: "update", trigger: "price changed by import spring.csv" },
  });
  const updates = (await get("/api/sync-logs?kind=update")).json<List<SyncLog>>();
  expect(updates.items).toHaveLength(1);
  expect(updates.items[0]).toMatchObject({
    id: records[3]!.syncLogId,
    kind: "update",
    trigger: "price changed by import spring.csv",
  });
  const publishes = (await get("/api/v1/sync-logs?kind=publish")).json<List<SyncLog>>();
  expect(publishes.total).toBe(3);
  expect(publishes.items.every((s) => s.kind === "publish" && s.trigger === null)).toBe(true);
  expect((await get("/api/sync-logs?kind=delete")).statusCode).toBe(422);
  await gw.db.syncLog.update({
    where: { id: records[3]!.syncLogId },
    data: { kind: "publish", trigger: null },
  });
});

test("pages through the logs", async () => {
  const page1 = (await get("/api/v1/sync-logs?pageSize=3")).json<List<SyncLog>>();
  const page2 = (await get("/api/v1/sync-logs?pageSize=3&page=2")).json<List<SyncLog>>();
  expect(page1).toMatchObject({ page: 1, pageSize: 3, total: 4, totalPages: 2 });
  expect(page2.items).toHaveLength(1);
  expect(new Set([...page1.items, ...page2.items].map((s) => s.id)).size).toBe(4);
});

test("another org sees none of them, even when it names them", async () => {
  const other = await createTestOrg(gw.db, "sync-logs-other");
  const otherCookie = await login(gw.app, other.member.email, other.member.password);
  expect((await get("/api/sync-logs", otherCookie)).json()).toMatchObject({ items: [], total: 0 });
  expect(
    (await get(`/api/sync-logs?productId=${productIds[0]}`, otherCookie)).json<List<SyncLog>>()
      .total,
  ).toBe(0);
});

test.each([
  ["status=stuck", /query field "status" must be one of: queued, running, succeeded, failed, dead/],
  ["productId=SKU-1", /query field "productId" must match format "uuid"/],
  ["destinationAccountId=42", /query field "destinationAccountId" must match format "uuid"/],
  ["pageSize=101", /"pageSize" must be <= 100/],
  ["page=0", /"page" must be >= 1/],
  ["sort=createdAt", /"sort" is not accepted/],
])("%s is 422 naming the field and the rule", async (query, message) => {
  const res = await get(`/api/sync-logs?${query}`);
  expect(res.statusCode).toBe(422);
  expect(errorOf(res)).toMatch(message);
});

test("a store with more than 10,000 sync logs is counted that far: the total says it is a lower bound and the next pages are reachable", async () => {
  const org = await createTestOrg(gw.db, "sync-logs-many");
  const c = await login(gw.app, org.member.email, org.member.password);
  const product = await makeProduct(gw.db, org.org.id, { title: "Busy mug" });
  const store = await connectStandin(gw, org.org.id, "busy shop");
  await gw.db
    .$executeRaw`INSERT INTO sync_logs (id, org_id, product_id, destination_account_id, job_id, status, created_at)
    SELECT g.id, ${org.org.id}::uuid, ${product.id}::uuid, ${store.id}::uuid, g.id::text, 'succeeded',
      now() - g.n * interval '1 minute'
    FROM (SELECT gen_random_uuid() AS id, n FROM generate_series(1, 10050) n) g`;

  const first = (await get(`/api/sync-logs?destinationAccountId=${store.id}&pageSize=100`, c)).json<
    List<SyncLog> & { totalExact: boolean }
  >();
  expect(first).toMatchObject({ total: 10_000, totalPages: 100, totalExact: false });
  expect(first.items).toHaveLength(100);
  // Past the first 10,000 the count reaches to the end: exact again.
  const last = (
    await get(`/api/sync-logs?destinationAccountId=${store.id}&pageSize=100&page=100`, c)
  ).json<List<SyncLog> & { totalExact: boolean }>();
  expect(last).toMatchObject({ total: 10_050, totalPages: 101, totalExact: true });
  const small = (await get(`/api/sync-logs?productId=${productIds[0]}`)).json<{
    total: number;
    totalExact: boolean;
  }>();
  expect(small).toMatchObject({ total: 2, totalExact: true });
});
