import { Worker } from "bullmq";
import {
  createTestDatabase,
  createTestOrg,
  dropTestDatabase,
  makeProduct,
  type TestOrg,
} from "@catalog/testing";
import type { DestinationView, PublishJobRecord } from "@catalog/db";
import { redisKeyPrefix } from "@catalog/config";
import {
  publishQueueName,
  queuePrefix,
  scanMatching,
  workerConnection,
  writeBreaker,
} from "@catalog/queue";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix, queuePublishes } from "./publishing-fixtures.js";
import type { SystemActionResult, SystemView } from "../src/api-types.js";

// replay_dlq and purge_dlq act on every org's dead publishes, and GET /api/system counts them
// all: this file has a database and a Redis prefix of its own, so other files cannot disturb
// its totals, and its recovery actions cannot touch their publishes.
const prefix = privatePrefix("system");
let databaseUrl: string;
let gw: Gateway;
let a: TestOrg;
let b: TestOrg;
let admin: string;
let member: string;
let owner: string;
let destA: DestinationView;
let destA2: DestinationView;
let destB: DestinationView;
let destB2: DestinationView;
let deadA: PublishJobRecord[];
let deadB: PublishJobRecord[];
let deadB2: PublishJobRecord[];

/**
 * What the publish worker does with a publish that ran out of attempts: its job fails, a dead
 * letter is added.
 */
async function killPublishes(records: PublishJobRecord[]) {
  const destinationId = records[0]!.destinationAccountId;
  const connection = workerConnection(gw.config);
  const worker = new Worker(
    publishQueueName(destinationId),
    async () => {
      throw new Error("channel said 500");
    },
    { connection, prefix: queuePrefix(gw.config.redisKeyPrefix) },
  );
  const failed = new Promise<void>((resolve) => {
    let n = 0;
    worker.on("failed", () => {
      if (++n === records.length) resolve();
    });
  });
  await failed;
  await worker.close();
  connection.disconnect();
  for (const r of records) {
    await gw.db.syncLog.update({
      where: { id: r.syncLogId },
      data: { status: "dead", attempts: 5, error: "channel said 500", finishedAt: new Date() },
    });
    await gw.app.queues.deadLetters.add(
      "dead",
      { ...r, error: "channel said 500" },
      { jobId: r.syncLogId },
    );
  }
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase(process.env.DATABASE_URL!, "system");
  gw = await startGateway({ DATABASE_URL: databaseUrl, REDIS_PREFIX: prefix });
  a = await createTestOrg(gw.db, "system-a");
  b = await createTestOrg(gw.db, "system-b");
  // The operator belongs to org A, like anyone, and acts on every org's destinations.
  admin = await login(gw.app, a.admin.email, a.admin.password);
  member = await login(gw.app, a.member.email, a.member.password);
  owner = await login(gw.app, a.owner.email, a.owner.password);
  destA = await connectStandin(gw, a.org.id, "A main");
  destA2 = await connectStandin(gw, a.org.id, "A outlet");
  destB = await connectStandin(gw, b.org.id, "B main");
  destB2 = await connectStandin(gw, b.org.id, "B outlet");
  const productsA = [
    await makeProduct(gw.db, a.org.id, { title: "A1" }),
    await makeProduct(gw.db, a.org.id, { title: "A2" }),
  ];
  const productB = await makeProduct(gw.db, b.org.id, { title: "B1" });
  deadA = await queuePublishes(
    gw,
    a.org.id,
    productsA.map((p) => p.id),
    [destA.id],
  );
  await queuePublishes(gw, a.org.id, [productsA[0]!.id], [destA2.id]);
  deadB = await queuePublishes(gw, b.org.id, [productB.id], [destB.id]);
  deadB2 = await queuePublishes(gw, b.org.id, [productB.id], [destB2.id]);
  await killPublishes(deadA);
  await killPublishes(deadB);
  await killPublishes(deadB2);
});
afterAll(async () => {
  await gw?.close();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
});

const byDestination = <T extends { destinationAccountId: string }>(list: T[]) =>
  Object.fromEntries(list.map(({ destinationAccountId, ...rest }) => [destinationAccountId, rest]));
const system = (cookie = admin) =>
  gw.app.inject({ method: "GET", url: "/api/system", headers: { cookie } });
const act = (payload: object, cookie = admin, g = gw) =>
  g.app.inject({ method: "POST", url: "/api/v1/system", headers: { cookie }, payload });

test("a member is refused both routes", async () => {
  expect((await system(member)).statusCode).toBe(403);
  expect((await act({ action: "replay_dlq" }, member)).statusCode).toBe(403);
});

test("an org's owner cannot see other orgs' queues nor purge or replay another org's dead publishes", async () => {
  expect((await system(owner)).statusCode).toBe(403);
  for (const payload of [
    { action: "purge_dlq", destinationAccountId: destB.id },
    { action: "replay_dlq", destinationAccountId: destB.id },
    { action: "purge_dlq" },
    { action: "replay_dlq" },
  ]) {
    const res = await act(payload, owner);
    expect({ payload, status: res.statusCode }).toEqual({ payload, status: 403 });
    expect(errorOf(res)).toMatch(/platform operator only/);
  }
  const logs = await gw.db.syncLog.findMany({
    where: { id: { in: [...deadB, ...deadB2].map((r) => r.syncLogId) } },
  });
  expect(logs.map((l) => l.status)).toEqual(["dead", "dead"]);
  expect(await gw.app.queues.deadLetters.getJob(deadB[0]!.syncLogId)).toBeDefined();
});

test("GET shows every org's queues, the DLQ total and the breakers", async () => {
  const openedAt = Date.now();
  await writeBreaker(gw.redis, gw.config.redisKeyPrefix, destA2.id, {
    state: "open",
    openedAt,
    retryAt: openedAt + 30_000,
  });
  const res = await system();
  expect(res.statusCode).toBe(200);
  const body = res.json<SystemView>();
  expect(body).toMatchObject({ redis: { ok: true }, database: { ok: true }, dlq: { total: 4 } });
  expect(byDestination(body.queues)).toEqual({
    [destA.id]: { waiting: 0, active: 0, delayed: 0, failed: 2, dead: 2 },
    [destA2.id]: { waiting: 1, active: 0, delayed: 0, failed: 0, dead: 0 },
    [destB.id]: { waiting: 0, active: 0, delayed: 0, failed: 1, dead: 1 },
    [destB2.id]: { waiting: 0, active: 0, delayed: 0, failed: 1, dead: 1 },
  });
  expect(byDestination(body.breakers)).toEqual({
    [destA.id]: { state: "closed", openedAt: null, retryAt: null },
    [destA2.id]: {
      state: "open",
      openedAt: new Date(openedAt).toISOString(),
      retryAt: new Date(openedAt + 30_000).toISOString(),
    },
    [destB.id]: { state: "closed", openedAt: null, retryAt: null },
    [destB2.id]: { state: "closed", openedAt: null, retryAt: null },
  });
});

test.each([
  [
    { action: "replay_dlq", destinationAccountId: "dest-1" },
    422,
    /body field "destinationAccountId" must match format "uuid"/,
  ],
  [
    { action: "purge_dlq", destinationAccountId: "7b0e8a36-3f7e-4a3b-9a1c-2b2f0c7d9e11" },
    404,
    /destination account .* not found/,
  ],
  [
    { action: "reboot" },
    422,
    /body field "action" must be one of: replay_dlq, purge_dlq, flush_redis/,
  ],
  [{ action: "flush_redis" }, 403, /lab mode/],
])("%j is %i", async (payload, status, message) => {
  const res = await act(payload);
  expect(res.statusCode).toBe(status);
  expect(errorOf(res)).toMatch(message);
});

test("replay_dlq for one destination queues its dead publishes again, attempts reset, jobs back on its queue", async () => {
  const res = await act({ action: "replay_dlq", destinationAccountId: destA.id });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ action: "replay_dlq", affected: 2 });

  const logs = await gw.db.syncLog.findMany({
    where: { id: { in: deadA.map((r) => r.syncLogId) } },
  });
  expect(logs.map((l) => [l.status, l.attempts, l.error, l.finishedAt])).toEqual([
    ["queued", 0, null, null],
    ["queued", 0, null, null],
  ]);
  const queue = gw.app.queues.publish.queue(destA.id);
  for (const r of deadA) {
    expect(await (await queue.getJob(r.jobId))?.getState()).toBe("waiting");
    expect(await gw.app.queues.deadLetters.getJob(r.syncLogId)).toBeUndefined();
  }
  const listings = await gw.db.listing.findMany({ where: { destinationAccountId: destA.id } });
  expect(listings.map((l) => l.status)).toEqual(["queued", "queued"]);

  const body = (await system()).json<SystemView>();
  expect(body.dlq.total).toBe(2);
  expect(byDestination(body.queues)[destA.id]).toEqual({
    waiting: 2,
    active: 0,
    delayed: 0,
    failed: 0,
    dead: 0,
  });
  // The other org's dead publish was not part of it.
  expect(await gw.app.queues.deadLetters.getJob(deadB[0]!.syncLogId)).toBeDefined();
});

test("the operator acts on another org's destination: purge_dlq for B's ends its dead publish failed", async () => {
  const res = await act({ action: "purge_dlq", destinationAccountId: destB.id });
  expect(res.json()).toEqual({ action: "purge_dlq", affected: 1 });
  expect(
    await gw.db.syncLog.findUniqueOrThrow({ where: { id: deadB[0]!.syncLogId } }),
  ).toMatchObject({ status: "failed", error: "channel said 500" });
  expect(await gw.app.queues.deadLetters.getJob(deadB[0]!.syncLogId)).toBeUndefined();
  // Only that destination's: B's other one still holds its dead publish.
  expect(
    await gw.db.syncLog.findUniqueOrThrow({ where: { id: deadB2[0]!.syncLogId } }),
  ).toMatchObject({ status: "dead" });
  expect((await system()).json<SystemView>().dlq.total).toBe(1);
});

test("purge_dlq discards every org's dead publishes: they end failed, the DLQ is empty", async () => {
  const res = await act({ action: "purge_dlq" });
  expect(res.json()).toEqual({ action: "purge_dlq", affected: 1 });
  const log = await gw.db.syncLog.findUniqueOrThrow({ where: { id: deadB2[0]!.syncLogId } });
  expect(log).toMatchObject({ status: "failed", error: "channel said 500" });
  expect(await gw.app.queues.deadLetters.getJob(deadB2[0]!.syncLogId)).toBeUndefined();
  expect((await system()).json<SystemView>().dlq.total).toBe(0);
  expect((await act({ action: "replay_dlq" })).json()).toEqual({
    action: "replay_dlq",
    affected: 0,
  });
});

describe("flush_redis in lab mode", () => {
  const labPrefix = privatePrefix("lab");
  const neighbour = privatePrefix("neighbour");
  let lab: Gateway;

  beforeAll(async () => {
    lab = await startGateway({
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: labPrefix,
      LAB_MODE: "true",
    });
  });
  afterAll(() => lab?.close());

  test("a destinationAccountId is refused, so nobody believes only one destination was flushed", async () => {
    const res = await act({ action: "flush_redis", destinationAccountId: destA.id }, admin, lab);
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/destinationAccountId/);
  });

  test("deletes every key under the deployment's prefix and nothing else", async () => {
    const own = lab.config.redisKeyPrefix;
    const ownKeys = [`${own}:a`, `${own}:publish:ready`, `${own}:x:y:z`];
    const others = [
      `${redisKeyPrefix(neighbour)}:keep`,
      `${redisKeyPrefix(`${labPrefix}-sibling`)}:keep`,
      `${own}keep`,
      `${labPrefix}:keep`,
    ];
    for (const key of [...ownKeys, ...others]) await lab.redis.set(key, "1");
    const res = await act({ action: "flush_redis" }, admin, lab);
    expect(res.statusCode).toBe(200);
    // Also the keys the request itself made (rate-limit counters) are under the prefix.
    expect(res.json<SystemActionResult>().affected).toBeGreaterThanOrEqual(ownKeys.length);
    expect(await lab.redis.exists(...ownKeys)).toBe(0);
    for (const key of others) expect(await lab.redis.exists(key)).toBe(1);
    const left: string[] = [];
    for await (const { keys } of scanMatching(lab.redis, `${own}:*`)) left.push(...keys);
    expect(left.filter((k) => !k.includes(":rate-limit:"))).toEqual([]);
    // The other gateway's prefix is untouched too: its queue still holds the replayed jobs.
    expect(byDestination((await system()).json<SystemView>().queues)[destA.id]).toMatchObject({
      waiting: 2,
    });
    for (const key of others) await lab.redis.del(key);
  });
});
