import { createTestOrg, eventually, makeProduct, type TestOrg } from "@catalog/testing";
import {
  recordFinalFailure,
  recordSuccess,
  startAttempt,
  type DestinationView,
  type FailureRecord,
} from "@catalog/db";
import { setChannelWait, writeBreaker } from "@catalog/queue";
import type {
  List,
  PublishResponse,
  PublishRun,
  PublishRunSummary,
  RetryResult,
} from "../src/api-types.js";
import { errorOf, login, startGateway, type Gateway } from "./harness.js";
import { connectStandin, privatePrefix } from "./publishing-fixtures.js";
import { openSse, type SseStream } from "./sse-client.js";
import { objectContaining } from "@catalog/test-support/matchers";

let gw: Gateway;
let a: TestOrg;
let b: TestOrg;
let member: string;
let otherOrg: string;
let d1: DestinationView;
let d2: DestinationView;
let products: string[];

beforeAll(async () => {
  gw = await startGateway({ REDIS_PREFIX: privatePrefix("runs") });
  a = await createTestOrg(gw.db, "runs-a");
  b = await createTestOrg(gw.db, "runs-b");
  member = await login(gw.app, a.member.email, a.member.password);
  otherOrg = await login(gw.app, b.owner.email, b.owner.password);
  d1 = await connectStandin(gw, a.org.id, "Main store");
  d2 = await connectStandin(gw, a.org.id, "Outlet");
  products = [];
  for (const n of [1, 2, 3])
    products.push(
      (await makeProduct(gw.db, a.org.id, { title: `Run mug ${n}`, sku: `RUN-${n}-${Date.now()}` }))
        .id,
    );
});
afterAll(() => gw.close());

const publish = (
  productIds: string[],
  destinationAccountIds: string[],
  headers: Record<string, string> = {},
) =>
  gw.app.inject({
    method: "POST",
    url: "/api/products/publish",
    headers: { cookie: member, ...headers },
    payload: { productIds, destinationAccountIds },
  });
const getRun = (id: string, cookie = member) =>
  gw.app.inject({ method: "GET", url: `/api/publish-runs/${id}`, headers: { cookie } });
const retry = (id: string, cookie = member) =>
  gw.app.inject({ method: "POST", url: `/api/v1/publish-runs/${id}/retry`, headers: { cookie } });
const newRun = async (productIds = products, destinations = [d1.id, d2.id]) => {
  const res = await publish(productIds, destinations);
  expect(res.statusCode).toBe(200);
  return res.json<{
    runId: string;
    jobs: { syncLogId: string; productId: string; destinationAccountId: string }[];
  }>();
};

/** What the publish worker records for one attempt of a cell. */
async function finish(
  syncLogId: string,
  outcome: { ok: true } | { status: "failed" | "dead"; error: string; failure?: FailureRecord },
) {
  const started = await startAttempt(gw.db, syncLogId, 60_000);
  if (!started) throw new Error(`sync log ${syncLogId} is not pending`);
  if ("ok" in outcome)
    await recordSuccess(gw.db, started.syncLog, {
      remoteId: `r-${syncLogId}`,
      remoteUrl: `https://standin.example/p/${syncLogId}`,
    });
  else
    await recordFinalFailure(
      gw.db,
      started.syncLog,
      outcome.error,
      outcome.status === "dead" ? { status: "dead", mirrorWithinMs: 60_000 } : { status: "failed" },
      outcome.failure,
    );
}

test("every publish is one run: the answer names it, a keyed replay names the same run, and the run lists its matrix", async () => {
  const key = `runs-${Date.now()}`;
  const res = await publish(products, [d1.id, d2.id], { "idempotency-key": key });
  expect(res.statusCode).toBe(200);
  const { runId, jobs } = res.json<PublishResponse>();
  expect(runId).toMatch(/^[0-9a-f-]{36}$/);
  const replay = await publish(products, [d1.id, d2.id], { "idempotency-key": key });
  expect(replay.json<PublishResponse>().runId).toBe(runId);

  const run = getRun(runId);
  const body = (await run).json<PublishRun>();
  expect(body).toMatchObject({
    id: runId,
    productCount: 3,
    destinationCount: 2,
    finished: false,
    failures: [],
    createdBy: { type: "user", id: a.member.id, name: a.member.email },
    firstProductTitle: "Run mug 1",
    destinationNames: ["Main store", "Outlet"],
    counts: { queued: 6, running: 0, succeeded: 0, failed: 0, dead: 0 },
  });
  expect(body.products.map((p) => [p.title, p.deleted])).toEqual([
    ["Run mug 1", false],
    ["Run mug 2", false],
    ["Run mug 3", false],
  ]);
  expect(
    body.destinations.map((d) => [
      d.name,
      d.channel,
      d.breaker.state,
      d.channelWaitUntil,
      d.disconnected,
    ]),
  ).toEqual([
    ["Main store", "standin", "closed", null, false],
    ["Outlet", "standin", "closed", null, false],
  ]);
  // Product-major, each product's destinations in request order: the matrix a client draws.
  expect(body.cells.map((c) => [c.productId, c.destinationAccountId])).toEqual(
    products.flatMap((p) => [
      [p, d1.id],
      [p, d2.id],
    ]),
  );
  expect(new Set(body.cells.map((c) => c.syncLogId))).toEqual(
    new Set(jobs.map((j) => j.syncLogId)),
  );

  const list = await gw.app.inject({
    method: "GET",
    url: "/api/publish-runs?pageSize=1",
    headers: { cookie: member },
  });
  expect(list.statusCode).toBe(200);
  const page = list.json<{ items: PublishRunSummary[]; total: number; totalPages: number }>();
  expect(page.items).toEqual([
    // What tells runs apart in a list: the products, the stores, who and when.
    objectContaining({
      id: runId,
      counts: body.counts,
      finished: false,
      productCount: 3,
      firstProductTitle: "Run mug 1",
      destinationNames: ["Main store", "Outlet"],
      createdBy: { type: "user", id: a.member.id, name: a.member.email },
      createdAt: body.createdAt,
    }),
  ]);
  expect(page.total).toBeGreaterThanOrEqual(1);
});

test("runs are the org's own: another org's run is 404 and absent from its list", async () => {
  const { runId } = await newRun([products[0]!], [d1.id]);
  const foreign = await getRun(runId, otherOrg);
  expect(foreign.statusCode).toBe(404);
  expect(errorOf(foreign)).toMatch(/publish run .* not found/);
  expect((await retry(runId, otherOrg)).statusCode).toBe(404);
  expect(
    (
      await gw.app.inject({
        method: "GET",
        url: `/api/publish-runs/${runId}/events`,
        headers: { cookie: otherOrg },
      })
    ).statusCode,
  ).toBe(404);
  const theirs = await gw.app.inject({
    method: "GET",
    url: "/api/publish-runs",
    headers: { cookie: otherOrg },
  });
  expect(theirs.json<List<PublishRunSummary>>().items.map((r) => r.id)).not.toContain(runId);
  expect((await getRun("not-a-run")).statusCode).toBe(404);
  expect((await gw.app.inject({ method: "GET", url: "/api/publish-runs" })).statusCode).toBe(401);
});

test("outcomes show as counts, failures grouped by message (largest first), and the run finishes", async () => {
  const { runId, jobs } = await newRun();
  const [j1, j2, j3, j4, j5, j6] = jobs.map((j) => j.syncLogId) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  await finish(j1, { ok: true });
  await finish(j2, { status: "failed", error: "price is required" });
  await finish(j3, { status: "failed", error: "price is required" });
  await finish(j4, { status: "dead", error: "standin answered 500" });
  await finish(j5, { ok: true });
  let run = (await getRun(runId)).json<PublishRun>();
  expect(run.counts).toEqual({ queued: 1, running: 0, succeeded: 2, failed: 2, dead: 1 });
  expect(run.finished).toBe(false);
  expect(run.failures.map((f) => [f.message, f.count])).toEqual([
    ["price is required", 2],
    ["standin answered 500", 1],
  ]);
  expect(run.failures[0]!.cells).toHaveLength(2);
  await finish(j6, { ok: true });
  run = (await getRun(runId)).json<PublishRun>();
  expect(run.finished).toBe(true);
  expect(run.cells.find((c) => c.syncLogId === j1)).toMatchObject({
    status: "succeeded",
    attempts: 1,
    remoteUrl: `https://standin.example/p/${j1}`,
  });
});

test("retry queues the failed and dead cells again in the same run, once, and takes the dead ones out of the dead-letter queue", async () => {
  const { runId, jobs } = await newRun([products[0]!, products[1]!], [d1.id]);
  const [ok, dead] = jobs.map((j) => j.syncLogId) as [string, string];
  await finish(ok, { ok: true });
  await finish(dead, { status: "dead", error: "standin answered 500" });
  await gw.app.queues.deadLetters.add(
    "dead",
    { ...jobs[1]!, orgId: a.org.id, error: "standin answered 500" },
    { jobId: dead },
  );

  const res = await retry(runId);
  expect(res.statusCode).toBe(200);
  const body = res.json<RetryResult>();
  expect(body).toMatchObject({
    runId,
    retried: 1,
    jobs: [{ productId: products[1], destinationAccountId: d1.id }],
  });
  expect(body.jobs[0]!.syncLogId).not.toBe(dead);
  expect(await gw.app.queues.publish.queue(d1.id).getJob(body.jobs[0]!.jobId)).toBeTruthy();
  expect(await gw.app.queues.deadLetters.getJob(dead)).toBeFalsy();
  expect((await gw.db.syncLog.findUniqueOrThrow({ where: { id: dead } })).status).toBe("failed");

  const run = (await getRun(runId)).json<PublishRun>();
  expect(run.counts).toEqual({ queued: 1, running: 0, succeeded: 1, failed: 0, dead: 0 });
  expect(run.finished).toBe(false);
  expect(run.failures).toEqual([]);
  // The retried cell is queued now: a second retry has nothing to do.
  expect((await retry(runId)).json()).toEqual({ runId, retried: 0, jobs: [] });
});

test("a run retries only what a retry can change: an outage at once, a product or a store's settings once fixed", async () => {
  const [p1, p2] = [products[0]!, products[1]!];
  const { runId, jobs } = await newRun([p1, p2], [d1.id, d2.id]);
  const cell = (p: string, d: string) =>
    jobs.find((j) => j.productId === p && j.destinationAccountId === d)!.syncLogId;
  const price = { kind: "product", field: "price", reason: "price is required" } as const;
  const settings = { kind: "settings", field: "settings", reason: "note is required" } as const;
  await finish(cell(p1, d1.id), {
    status: "failed",
    error: `standin needs a price: product ${p1} has none`,
    failure: price,
  });
  await finish(cell(p2, d1.id), { status: "dead", error: "standin answered 503" });
  await finish(cell(p1, d2.id), {
    status: "failed",
    error: "standin destination settings are incomplete: note is required",
    failure: settings,
  });
  await finish(cell(p2, d2.id), { ok: true });

  const failureOf = async (p: string, d: string) =>
    (await getRun(runId))
      .json<PublishRun>()
      .cells.find((c) => c.productId === p && c.destinationAccountId === d)!.failure;
  expect(await failureOf(p1, d1.id)).toEqual({ ...price, retryable: false });
  // Dead is out of attempts on outages: time can change it.
  expect(await failureOf(p2, d1.id)).toEqual({
    kind: "temporary",
    field: null,
    reason: null,
    retryable: true,
  });
  expect(await failureOf(p1, d2.id)).toEqual({ ...settings, retryable: false });
  expect(await failureOf(p2, d2.id)).toBeNull();
  // The sync log says the same to any client.
  const logs = await gw.app.inject({
    method: "GET",
    url: `/api/sync-logs?productId=${p1}&destinationAccountId=${d1.id}`,
    headers: { cookie: member },
  });
  expect(logs.json<{ items: { failure: unknown }[] }>().items[0]!.failure).toEqual(price);

  // Only the outage is retried: the missing price would fail the same way.
  let res = (await retry(runId)).json<RetryResult>();
  expect(res.jobs.map((j) => [j.productId, j.destinationAccountId])).toEqual([[p2, d1.id]]);

  // Once the product is edited, and the store's settings changed, those can be retried too.
  const owner = await login(gw.app, a.owner.email, a.owner.password);
  const edited = await gw.app.inject({
    method: "PATCH",
    url: `/api/products/${p1}`,
    headers: { cookie: member },
    payload: { title: "Run mug 1", description: "Now with a price", version: 1 },
  });
  expect(edited.statusCode).toBe(200);
  expect(await failureOf(p1, d1.id)).toMatchObject({ retryable: true });
  expect(await failureOf(p1, d2.id)).toMatchObject({ retryable: false });
  const patchStore = (payload: object) =>
    gw.app.inject({
      method: "PATCH",
      url: `/api/destinations?id=${d2.id}`,
      headers: { cookie: owner },
      payload,
    });
  // A rename is not a fix, nor is a settings change that changes nothing (clearing one never
  // set); a change of settings is.
  expect((await patchStore({ name: "Outlet" })).statusCode).toBe(200);
  expect(await failureOf(p1, d2.id)).toMatchObject({ retryable: false });
  expect((await patchStore({ settings: { currency: null } })).statusCode).toBe(200);
  expect(await failureOf(p1, d2.id)).toMatchObject({ retryable: false });
  expect((await patchStore({ settings: { currency: "EUR" } })).statusCode).toBe(200);
  expect(await failureOf(p1, d2.id)).toMatchObject({ retryable: true });
  res = (await retry(runId)).json<RetryResult>();
  expect(res.jobs.map((j) => [j.productId, j.destinationAccountId]).sort()).toEqual(
    [
      [p1, d1.id],
      [p1, d2.id],
    ].sort(),
  );
});

test("publishing the ones that pass: skipped pairs are left out of the run; skipping every pair is 422", async () => {
  const [p1, p2] = [products[0]!, products[1]!];
  const body = (skip: { productId: string; destinationAccountId: string }[]) =>
    gw.app.inject({
      method: "POST",
      url: "/api/products/publish",
      headers: { cookie: member },
      payload: { productIds: [p1, p2], destinationAccountIds: [d1.id, d2.id], skip },
    });
  const res = await body([
    { productId: p2, destinationAccountId: d1.id },
    { productId: p2, destinationAccountId: d2.id },
  ]);
  expect(res.statusCode).toBe(200);
  const { runId, jobs } = res.json<PublishResponse>();
  expect(jobs.map((j) => [j.productId, j.destinationAccountId])).toEqual([
    [p1, d1.id],
    [p1, d2.id],
  ]);
  // The product left out everywhere is not part of the run.
  const run = (await getRun(runId)).json<PublishRun>();
  expect(run.productCount).toBe(1);
  expect(run.products.map((p) => p.id)).toEqual([p1]);

  const none = await body(
    [p1, p2].flatMap((productId) =>
      [d1.id, d2.id].map((destinationAccountId) => ({ productId, destinationAccountId })),
    ),
  );
  expect(none.statusCode).toBe(422);
  expect(errorOf(none)).toMatch(/nothing to publish/);
});

test("a channel's wait is shown on the run's destination, and a retry to it is 429 with nothing queued", async () => {
  // A destination of its own: the wait outlives the test.
  const throttled = await connectStandin(gw, a.org.id, "Throttled");
  const { runId, jobs } = await newRun([products[2]!], [throttled.id]);
  await finish(jobs[0]!.syncLogId, { status: "failed", error: "throttled" });
  const until = Date.now() + 120_000;
  await setChannelWait(gw.redis, gw.config.redisKeyPrefix, throttled.id, {
    until,
    channel: "standin",
    reason: "429 Too Many Requests",
  });
  await writeBreaker(gw.redis, gw.config.redisKeyPrefix, throttled.id, {
    state: "open",
    openedAt: Date.now(),
    retryAt: Date.now() + 30_000,
  });
  const run = (await getRun(runId)).json<PublishRun>();
  expect(run.destinations[0]).toMatchObject({
    id: throttled.id,
    channelWaitUntil: new Date(until).toISOString(),
    breaker: { state: "open" },
  });
  const refused = await retry(runId);
  expect(refused.statusCode).toBe(429);
  expect(refused.headers["retry-after"]).toBeDefined();
  expect(errorOf(refused)).toMatch(/standin asked to wait/);
  expect((await getRun(runId)).json<PublishRun>().counts).toMatchObject({ failed: 1, queued: 0 });
});

describe("GET /api/publish-runs/:id/events over a real port", () => {
  let base: string;
  beforeAll(async () => {
    await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const address = gw.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });

  test("sends the run at once, again when it changes, then end, and closes", async () => {
    const { runId, jobs } = await newRun([products[0]!], [d1.id, d2.id]);
    const stream = await openSse(`${base}/api/publish-runs/${runId}/events`, { cookie: member });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
      const first = await stream.nextEvent();
      expect(first).toMatchObject({
        event: "run",
        data: { id: runId, counts: { queued: 2 }, finished: false },
      });
      await finish(jobs[0]!.syncLogId, { ok: true });
      expect(await stream.nextEvent(5000)).toMatchObject({
        event: "run",
        data: { counts: { queued: 1, succeeded: 1 }, finished: false },
      });
      await finish(jobs[1]!.syncLogId, { status: "failed", error: "no image" });
      const last = await stream.nextEvent(5000);
      expect(last).toMatchObject({
        event: "run",
        data: { finished: true, failures: [{ message: "no image", count: 1 }] },
      });
      expect(await stream.nextEvent(5000)).toMatchObject({ event: "end" });
      expect(await stream.next(5000)).toBeNull();
    } finally {
      stream.close();
    }
  });

  test("a finished run answers its state and end at once", async () => {
    const { runId, jobs } = await newRun([products[1]!], [d1.id]);
    await finish(jobs[0]!.syncLogId, { ok: true });
    const stream = await openSse(`${base}/api/v1/publish-runs/${runId}/events`, { cookie: member });
    expect(await stream.nextEvent()).toMatchObject({ event: "run", data: { finished: true } });
    expect(await stream.nextEvent()).toMatchObject({ event: "end" });
    expect(await stream.next()).toBeNull();
  });

  test("streams per session are limited; leaving frees a slot and stops the server's polling; a quiet stream gets heartbeats", async () => {
    const { runId } = await newRun([products[2]!], [d1.id]);
    const cookie = await login(gw.app, a.member.email, a.member.password);
    const url = `${base}/api/publish-runs/${runId}/events`;
    const streams = [];
    for (let i = 0; i < 5; i++) {
      const s = await openSse(url, { cookie });
      expect(s.status).toBe(200);
      expect((await s.nextEvent())?.event).toBe("run");
      streams.push(s);
    }
    // One poller for the five streams of this run.
    expect(gw.app.runEvents.watchers.polling).toBe(1);
    const sixth = await gw.app.inject({
      method: "GET",
      url: `/api/publish-runs/${runId}/events`,
      headers: { cookie },
    });
    expect(sixth.statusCode).toBe(429);
    expect(errorOf(sixth)).toMatch(/already follows 5 publish runs live/);

    streams.pop()!.close();
    let reopened: SseStream | undefined;
    await eventually(async () => {
      const s = await openSse(url, { cookie });
      if (s.status !== 200) {
        s.close();
        throw new Error(`status ${s.status}`);
      }
      reopened = s;
    }, 3000);
    streams.push(reopened!);

    const quiet = streams[0]!;
    expect(await quiet.next(17_000)).toEqual({ comment: "heartbeat" });
    for (const s of streams) s.close();
    await eventually(async () => {
      expect({ open: gw.app.runEvents.open, polling: gw.app.runEvents.watchers.polling }).toEqual({
        open: 0,
        polling: 0,
      });
    }, 3000);
  }, 30_000);
});
