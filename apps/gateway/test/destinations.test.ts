import { createTestOrg, makeProduct, type TestOrg } from "@catalog/testing";
import { publishKeys, readQueueCounts, setChannelWait, writeBreaker } from "@catalog/queue";
import type { DestinationView, PublishJobRecord } from "@catalog/db";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix, queuePublishes } from "./publishing-fixtures.js";
import type { DestinationList, Disconnected, List, SyncLog } from "../src/api-types.js";

let gw: Gateway;
let t: TestOrg;
/** A member's session: reads destinations and publishes. */
let cookie: string;
/** An owner's session: disconnects. */
let ownerCookie: string;

beforeAll(async () => {
  gw = await startGateway({ REDIS_PREFIX: privatePrefix("destinations") });
  t = await createTestOrg(gw.db, "destinations");
  cookie = await login(gw.app, t.member.email, t.member.password);
  ownerCookie = await login(gw.app, t.owner.email, t.owner.password);
});
afterAll(() => gw.close());

const get = (url: string, c = cookie) =>
  gw.app.inject({ method: "GET", url, headers: { cookie: c } });
const del = (url: string, c = ownerCookie) =>
  gw.app.inject({ method: "DELETE", url, headers: { cookie: c } });
const itemOf = async (id: string) =>
  (await get("/api/destinations")).json<DestinationList>().items.find((d) => d.id === id);

test("without a session both routes are 401", async () => {
  expect((await gw.app.inject({ method: "GET", url: "/api/destinations" })).statusCode).toBe(401);
  expect(
    (await gw.app.inject({ method: "DELETE", url: "/api/destinations?id=x" })).statusCode,
  ).toBe(401);
});

describe("GET /api/destinations", () => {
  let org: TestOrg;
  let orgCookie: string;
  let first: DestinationView;
  let second: DestinationView;

  beforeAll(async () => {
    org = await createTestOrg(gw.db, "destinations-list");
    orgCookie = await login(gw.app, org.member.email, org.member.password);
    first = await connectStandin(gw, org.org.id, "Main shop");
    second = await connectStandin(gw, org.org.id, "Outlet");
    // Connected a minute apart, so "oldest first" does not hang on two inserts' milliseconds.
    const earlier = new Date(Date.parse(first.connectedAt) - 60_000);
    await gw.db.destinationAccount.update({
      where: { id: first.id },
      data: { connectedAt: earlier },
    });
    first = { ...first, connectedAt: earlier.toISOString() };
    const products = [
      await makeProduct(gw.db, org.org.id, { title: "A" }),
      await makeProduct(gw.db, org.org.id, { title: "B" }),
    ];
    await queuePublishes(
      gw,
      org.org.id,
      products.map((p) => p.id),
      [first.id],
    );
    const [dead] = await queuePublishes(gw, org.org.id, [products[0]!.id], [second.id]);
    await gw.db.syncLog.update({ where: { id: dead!.syncLogId }, data: { status: "dead" } });
  });

  test("lists the org's connected destinations, oldest first, with queue depths from the real queues", async () => {
    const res = await get("/api/v1/destinations", orgCookie);
    expect(res.statusCode).toBe(200);
    const { items } = res.json<DestinationList>();
    expect(items.map((d) => d.id)).toEqual([first.id, second.id]);
    expect(items[0]).toEqual({
      id: first.id,
      channel: "standin",
      name: "Main shop",
      health: "ok",
      settings: {},
      autoSync: true,
      outOfStockPolicy: "keepAtZero",
      breaker: { state: "closed", openedAt: null, retryAt: null },
      channelWaitUntil: null,
      channelWait: null,
      queue: { waiting: 2, active: 0, delayed: 0, failed: 0, dead: 0 },
      connectedAt: first.connectedAt,
    });
    // The dead publish counts from PostgreSQL; its job is still waiting in Redis (no worker ran).
    expect(items[1]!.queue).toEqual({ waiting: 1, active: 0, delayed: 0, failed: 0, dead: 1 });
  });

  test("shows an open breaker and a channel's wait as ISO times", async () => {
    const openedAt = Date.now() - 5_000;
    const until = Date.now() + 60_000;
    await writeBreaker(gw.redis, gw.config.redisKeyPrefix, second.id, {
      state: "open",
      openedAt,
      retryAt: openedAt + 30_000,
    });
    await setChannelWait(gw.redis, gw.config.redisKeyPrefix, second.id, {
      until,
      channel: "standin",
      reason: "429 Too Many Requests",
    });
    const item = (await get("/api/destinations", orgCookie)).json<DestinationList>().items[1]!;
    expect(item.breaker).toEqual({
      state: "open",
      openedAt: new Date(openedAt).toISOString(),
      retryAt: new Date(openedAt + 30_000).toISOString(),
    });
    expect(item.channelWaitUntil).toBe(new Date(until).toISOString());
    expect(item.channelWait).toEqual({ channel: "standin", reason: "429 Too Many Requests" });
  });

  test("stores connected in the same millisecond come by name, whatever their ids", async () => {
    const other = await createTestOrg(gw.db, "destinations-same-moment");
    const otherCookie = await login(gw.app, other.member.email, other.member.password);
    const connectedAt = new Date();
    // Created in the wrong order, with ids that sort the wrong way too.
    for (const [id, name] of [
      ["00000000-0000-4000-8000-000000000000", "Quay store"],
      ["ffffffff-ffff-4fff-bfff-ffffffffffff", "Harbour store"],
    ] as const) {
      await gw.db.destinationAccount.create({
        data: { id, orgId: other.org.id, channel: "standin", name, connectedAt },
      });
    }
    const { items } = (await get("/api/destinations", otherCookie)).json<DestinationList>();
    expect(items.map((d) => d.name)).toEqual(["Harbour store", "Quay store"]);
  });

  test("another org's destinations never appear", async () => {
    const mine = (await get("/api/destinations")).json<DestinationList>().items.map((d) => d.id);
    expect(mine).not.toContain(first.id);
    expect(mine).not.toContain(second.id);
  });
});

describe("DELETE /api/destinations", () => {
  let destination: DestinationView;
  let records: PublishJobRecord[];
  let productIds: string[];

  beforeAll(async () => {
    destination = await connectStandin(gw, t.org.id, "To disconnect");
    const products = [
      await makeProduct(gw.db, t.org.id, { title: "Kept 1" }),
      await makeProduct(gw.db, t.org.id, { title: "Kept 2" }),
    ];
    productIds = products.map((p) => p.id);
    records = await queuePublishes(gw, t.org.id, productIds, [destination.id]);
    await writeBreaker(gw.redis, gw.config.redisKeyPrefix, destination.id, {
      state: "open",
      openedAt: Date.now(),
      retryAt: Date.now() + 30_000,
    });
    await setChannelWait(gw.redis, gw.config.redisKeyPrefix, destination.id, {
      until: Date.now() + 60_000,
      channel: "standin",
      reason: "slow down",
    });
  });

  test("a member, or the platform operator in its own org, is refused (403 saying an owner must) and nothing changes", async () => {
    const operator = await login(gw.app, t.admin.email, t.admin.password);
    for (const c of [cookie, operator]) {
      const res = await del(`/api/destinations?id=${destination.id}`, c);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res)).toMatch(/an owner of the org must do this/);
    }
    const row = await gw.db.destinationAccount.findUniqueOrThrow({ where: { id: destination.id } });
    expect(row).toMatchObject({ disconnectedAt: null });
    expect(row.credentials).not.toBeNull();
    expect((await gw.app.queues.publish.queue(destination.id).getJob(records[0]!.jobId))?.id).toBe(
      records[0]!.jobId,
    );
    // Reading stays open to them.
    expect(await itemOf(destination.id)).toMatchObject({ id: destination.id });
  });

  test("a missing id is 422 naming it", async () => {
    const res = await del("/api/destinations");
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatch(/query field "id" is required/);
  });

  test("an unknown id, a malformed one, or another org's destination is 404", async () => {
    const other = await createTestOrg(gw.db, "destinations-other");
    const theirs = await connectStandin(gw, other.org.id, "Theirs");
    for (const id of ["7b0e8a36-3f7e-4a3b-9a1c-2b2f0c7d9e11", "not-an-id", theirs.id]) {
      const res = await del(`/api/destinations?id=${id}`);
      expect({ id, status: res.statusCode }).toEqual({ id, status: 404 });
      expect(errorOf(res)).toMatch(/destination not found/);
    }
    const row = await gw.db.destinationAccount.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(row).toMatchObject({ disconnectedAt: null, health: "ok" });
    expect(row.credentials).not.toBeNull();
  });

  test("disconnects: queued jobs removed, pending publishes failed, credentials erased, products kept", async () => {
    const keys = publishKeys(gw.config.redisKeyPrefix);
    const queue = gw.app.queues.publish.queue(destination.id);
    expect((await queue.getJob(records[0]!.jobId))?.id).toBe(records[0]!.jobId);
    expect(await gw.redis.zscore(keys.ready, destination.id)).not.toBeNull();

    const res = await del(`/api/destinations?id=${destination.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: destination.id,
      disconnected: true,
      listingsLeftLive: 0,
      message: "disconnected; no listing of it is live on the store",
    });

    expect(
      (await readQueueCounts(gw.redis, gw.config.redisKeyPrefix, [destination.id])).get(
        destination.id,
      ),
    ).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    expect(await queue.getJob(records[0]!.jobId)).toBeUndefined();
    expect(await gw.redis.zscore(keys.ready, destination.id)).toBeNull();
    expect(await gw.redis.exists(keys.wait(destination.id), keys.breaker(destination.id))).toBe(0);

    const logs = await gw.db.syncLog.findMany({ where: { destinationAccountId: destination.id } });
    expect(logs.map((l) => l.status)).toEqual(["failed", "failed"]);
    expect(logs[0]!.error).toMatch(/disconnected/);
    const row = await gw.db.destinationAccount.findUniqueOrThrow({ where: { id: destination.id } });
    expect(row).toMatchObject({ credentials: null, credentialsKeyId: null });
    expect(row.disconnectedAt).toBeInstanceOf(Date);

    expect(await itemOf(destination.id)).toBeUndefined();
    for (const id of productIds) expect((await get(`/api/products/${id}`)).statusCode).toBe(200);
    const listed = (await get(`/api/sync-logs?destinationAccountId=${destination.id}`)).json<
      List<SyncLog>
    >();
    expect(listed.items.map((s) => s.status)).toEqual(["failed", "failed"]);
  });

  test("disconnecting again answers 200 again and changes nothing", async () => {
    const before = await gw.db.destinationAccount.findUniqueOrThrow({
      where: { id: destination.id },
    });
    const res = await del(`/api/v1/destinations?id=${destination.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: destination.id,
      disconnected: true,
      listingsLeftLive: 0,
      message: "disconnected; no listing of it is live on the store",
    });
    expect(
      await gw.db.destinationAccount.findUniqueOrThrow({ where: { id: destination.id } }),
    ).toEqual(before);
  });
});

describe("two disconnects of one destination at the same moment", () => {
  type LogLine = { level: number; msg: string; err?: { message: string } };
  let logged: LogLine[];
  let gw2: Gateway;
  let owner: string;
  let org: TestOrg;

  beforeAll(async () => {
    logged = [];
    gw2 = await startGateway(
      { REDIS_PREFIX: privatePrefix("destinations-twice") },
      {
        logger: {
          level: "warn",
          stream: {
            write: (line: string) => {
              logged.push(JSON.parse(line) as LogLine);
            },
          },
        },
      },
    );
    org = await createTestOrg(gw2.db, "destinations-twice");
    owner = await login(gw2.app, org.owner.email, org.owner.password);
  });
  afterAll(() => gw2.close());

  test("both answer 200, everything is removed from Redis and PostgreSQL, and nothing is logged", async () => {
    const destination = await connectStandin(gw2, org.org.id, "Twice");
    const product = await makeProduct(gw2.db, org.org.id, { title: "Twice" });
    const [record] = await queuePublishes(gw2, org.org.id, [product.id], [destination.id]);
    // BullMQ pauses a queue, then obliterates it. Both requests pause before either obliterates:
    // the interleaving in which the first one's obliterate deletes the queue under the second.
    const queue = gw2.app.queues.publish.queue(destination.id);
    const pause = queue.pause.bind(queue);
    let paused = 0;
    let bothPaused!: () => void;
    const gate = new Promise<void>((resolve) => {
      bothPaused = resolve;
    });
    queue.pause = async () => {
      await pause();
      if (++paused === 2) bothPaused();
      await gate;
    };

    const answers = await Promise.all(
      [1, 2].map(() =>
        gw2.app.inject({
          method: "DELETE",
          url: `/api/destinations?id=${destination.id}`,
          headers: { cookie: owner },
        }),
      ),
    );
    expect(answers.map((a) => [a.statusCode, a.json<Disconnected>()])).toEqual(
      [1, 2].map(() => [
        200,
        {
          id: destination.id,
          disconnected: true,
          listingsLeftLive: 0,
          message: "disconnected; no listing of it is live on the store",
        },
      ]),
    );
    // What the two requests logged. A background connection's own report (a Redis Cluster slow to
    // answer its slots query on a loaded machine: "... connection error") is not theirs.
    expect(logged.filter((line) => !/ connection error$/.test(line.msg))).toEqual([]);

    const keys = publishKeys(gw2.config.redisKeyPrefix);
    expect(await queue.getJob(record!.jobId)).toBeUndefined();
    expect(await gw2.redis.zscore(keys.ready, destination.id)).toBeNull();
    expect(await gw2.redis.exists(keys.wait(destination.id), keys.breaker(destination.id))).toBe(0);
    const row = await gw2.db.destinationAccount.findUniqueOrThrow({
      where: { id: destination.id },
    });
    expect(row).toMatchObject({ credentials: null, credentialsKeyId: null, health: "down" });
    expect(
      (await gw2.db.syncLog.findUniqueOrThrow({ where: { id: record!.syncLogId } })).status,
    ).toBe("failed");
  });
});
