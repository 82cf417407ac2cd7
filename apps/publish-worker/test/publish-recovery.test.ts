import type { ApiError } from "@catalog/gateway/api-types";
import { eventually } from "@catalog/testing";
import { startPipeline, syncLogsOf, type Pipeline } from "./pipeline-harness.js";
import { spawnWorker } from "./worker-process.js";

type Jobs = { jobs: { syncLogId: string; productId: string; destinationAccountId: string }[] };
const idsOf = (body: unknown) => (body as Jobs).jobs.map((j) => j.syncLogId);

let p: Pipeline;
beforeEach(async () => {
  p = await startPipeline();
});
afterEach(() => p.close());

// A publish that did not succeed shows its error too, so a failure says which path it took.
const allSucceeded = async (ids: string[]) =>
  expect(
    (await syncLogsOf(p.db, ids)).map((l) =>
      l.status === "succeeded" ? l.status : `${l.status}: ${l.error}`,
    ),
  ).toEqual(ids.map(() => "succeeded"));

test("the same Idempotency-Key and body answers the first result and enqueues nothing more; another body is 422", async () => {
  const destination = await p.addDestination("idem");
  const products = await p.addProducts(2, "Idem");
  const first = await p.publish(products, [destination], { "idempotency-key": "order-42" });
  const again = await p.publish(products, [destination], { "idempotency-key": "order-42" });
  expect(first.statusCode).toBe(200);
  expect(again.statusCode).toBe(200);
  expect(again.json()).toEqual(first.json());
  expect(await p.db.syncLog.count({ where: { destinationAccountId: destination } })).toBe(2);
  expect(await p.app.queues.publish.queue(destination).count()).toBe(2);

  const other = await p.publish(products.slice(0, 1), [destination], {
    "idempotency-key": "order-42",
  });
  expect(other.statusCode).toBe(422);
  expect(other.json<ApiError>().error).toMatch(/different request body/);
}, 20_000);

test("after flush_redis, every accepted publish still completes, once", async () => {
  const destination = await p.addDestination("flushed");
  const products = await p.addProducts(3, "Flush");
  const ids = idsOf((await p.publish(products, [destination])).json());
  const flush = await p.app.inject({
    method: "POST",
    url: "/api/system",
    headers: { cookie: p.adminCookie },
    payload: { action: "flush_redis" },
  });
  expect(flush.statusCode).toBe(200);
  expect(await p.app.queues.publish.queue(destination).count()).toBe(0);

  p.startWorker();
  await eventually(() => allSucceeded(ids), 15_000);
  expect(p.standin.store("flushed").counts).toMatchObject({ create: 3, update: 0 });
}, 30_000);

test("a worker killed with SIGKILL mid-call: another worker finishes the job and the channel holds one listing", async () => {
  const destination = await p.addDestination("killed");
  p.standin.setFault("killed", { kind: "slow", delayMs: 1_500 });
  const [product] = await p.addProducts(1, "Kill");
  const worker = await spawnWorker(p.env);
  const [id] = idsOf((await p.publish([product!], [destination])).json());
  await eventually(async () => {
    expect((await syncLogsOf(p.db, [id!]))[0]!.status).toBe("running");
    expect(p.standin.store("killed").counts.requests).toBeGreaterThan(0);
  }, 15_000);
  worker.child.kill("SIGKILL");
  await worker.exited;
  p.standin.setFault("killed", null);

  p.startWorker();
  await eventually(() => allSucceeded([id!]), 20_000);
  const store = p.standin.store("killed");
  expect(store.listings).toHaveLength(1);
  const listing = await p.db.listing.findFirstOrThrow({
    where: { productId: product!, destinationAccountId: destination },
  });
  expect(listing.remoteId).toBe(store.listings[0]!.id);
}, 45_000);

test("a worker killed after the channel listed a product but before the success was committed: the job runs again and the channel holds one listing per product", async () => {
  const destination = await p.addDestination("unrecorded");
  const products = await p.addProducts(3, "Unrecorded");
  // A success's statement waits in PostgreSQL (the window between the channel's answer and the
  // commit that records it, which a batch widens), so the worker can be killed inside it.
  await p.db.$executeRawUnsafe(
    `CREATE FUNCTION hold_success() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(60); RETURN NEW; END $$`,
  );
  await p.db.$executeRawUnsafe(
    `CREATE TRIGGER hold_success BEFORE UPDATE ON sync_logs FOR EACH ROW
     WHEN (NEW.status = 'succeeded' AND OLD.status = 'running') EXECUTE FUNCTION hold_success()`,
  );
  const holding = `FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND datname = current_database()`;
  const worker = await spawnWorker(p.env);
  const ids = idsOf((await p.publish(products, [destination])).json());
  await eventually(async () => {
    expect(p.standin.store("unrecorded").listings.length).toBeGreaterThan(0);
    const [held] = await p.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n ${holding}`,
    );
    expect(held!.n).toBeGreaterThan(0);
  }, 20_000);
  worker.child.kill("SIGKILL");
  await worker.exited;
  // The dead worker's statement never commits.
  await p.db.$queryRawUnsafe(`SELECT pg_terminate_backend(pid) ${holding}`);
  await p.db.$executeRawUnsafe(`DROP TRIGGER hold_success ON sync_logs`);
  await p.db.$executeRawUnsafe(`DROP FUNCTION hold_success()`);
  const listedBefore = p.standin.store("unrecorded").listings.length;
  expect((await syncLogsOf(p.db, ids)).map((l) => l.status)).not.toContain("succeeded");

  p.startWorker();
  await eventually(() => allSucceeded(ids), 25_000);
  const store = p.standin.store("unrecorded");
  expect(listedBefore).toBeGreaterThan(0);
  expect(store.listings).toHaveLength(3);
  expect(store.counts.create).toBe(3);
  const listings = await p.db.listing.findMany({ where: { destinationAccountId: destination } });
  expect(listings.map((l) => l.remoteId).sort()).toEqual(store.listings.map((l) => l.id).sort());
}, 60_000);

test("a worker killed with SIGKILL frees its destinations and its jobs within seconds, well before the old 30 s lease", async () => {
  const stores = ["held-a", "held-b"];
  const destinations = await Promise.all(stores.map((store) => p.addDestination(store)));
  for (const store of stores) p.standin.setFault(store, { kind: "slow", delayMs: 3_000 });
  const products = await p.addProducts(2, "Held");
  const worker = await spawnWorker(p.env);
  const ids = idsOf((await p.publish(products, destinations)).json());
  // The killed worker holds both destinations (one slot each) with a job in flight on each.
  await eventually(async () => {
    const running = (await syncLogsOf(p.db, ids)).filter((l) => l.status === "running");
    expect(new Set(running.map((l) => l.destinationAccountId)).size).toBe(2);
  }, 15_000);
  worker.child.kill("SIGKILL");
  await worker.exited;
  for (const store of stores) p.standin.setFault(store, null);

  p.startWorker();
  // With the old 30 s leases the destinations stayed blocked for 30 s and the jobs in flight came
  // back after about 53 s. Now leases and locks live 5 s (renewed every second while in use), so
  // all four finish in about 10 s; 25 s leaves a busy machine more than twice that.
  await eventually(() => allSucceeded(ids), 25_000);
  for (const store of stores) expect(p.standin.store(store).listings).toHaveLength(2);
}, 60_000);

test("SIGTERM lets the job in flight finish before the worker exits", async () => {
  const destination = await p.addDestination("graceful");
  p.standin.setFault("graceful", { kind: "slow", delayMs: 1_000 });
  const [product] = await p.addProducts(1, "Term");
  const worker = await spawnWorker(p.env);
  const [id] = idsOf((await p.publish([product!], [destination])).json());
  await eventually(
    async () => expect((await syncLogsOf(p.db, [id!]))[0]!.status).toBe("running"),
    15_000,
  );
  worker.child.kill("SIGTERM");
  expect(await worker.exited).toBe(0);
  await allSucceeded([id!]);
}, 45_000);

test("two workers share many destinations and no job is done twice", async () => {
  const destinations = await Promise.all(
    Array.from({ length: 12 }, (_, i) => p.addDestination(`shared-${i}`)),
  );
  const products = await p.addProducts(5, "Shared");
  const ids = idsOf((await p.publish(products, destinations)).json());
  p.startWorker();
  p.startWorker();
  await eventually(() => allSucceeded(ids), 30_000);
  for (let i = 0; i < destinations.length; i++) {
    const store = p.standin.store(`shared-${i}`);
    expect(store.counts).toMatchObject({ create: 5, update: 0 });
    expect(store.listings).toHaveLength(5);
  }
}, 60_000);

test("disconnecting a destination mid-work ends its pending publishes, erases its credentials and keeps the products", async () => {
  const destination = await p.addDestination("leaving");
  p.standin.setFault("leaving", { kind: "slow", delayMs: 400 });
  const products = await p.addProducts(6, "Leave");
  const ids = idsOf((await p.publish(products, [destination])).json());
  p.startWorker();
  await eventually(
    async () =>
      expect((await syncLogsOf(p.db, ids)).some((l) => l.status === "running")).toBe(true),
    10_000,
  );
  const res = await p.app.inject({
    method: "DELETE",
    url: `/api/destinations?id=${destination}`,
    headers: { cookie: p.ownerCookie },
  });
  expect(res.statusCode).toBe(200);

  await eventually(async () => {
    const statuses = (await syncLogsOf(p.db, ids)).map((l) => l.status);
    expect(statuses.every((s) => s === "succeeded" || s === "failed")).toBe(true);
  }, 10_000);
  const logs = await syncLogsOf(p.db, ids);
  expect(logs.filter((l) => l.status === "failed").length).toBeGreaterThanOrEqual(4);
  expect(p.standin.store("leaving").counts.create).toBeLessThanOrEqual(2);
  const row = await p.db.destinationAccount.findUniqueOrThrow({ where: { id: destination } });
  expect(row.credentials).toBeNull();
  expect(await p.db.product.count({ where: { id: { in: products } } })).toBe(6);
}, 30_000);
