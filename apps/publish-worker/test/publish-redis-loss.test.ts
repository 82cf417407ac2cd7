// What Redis loses or refuses (a flush_redis that is not atomic, a restart) never strands or
// rewrites a publish PostgreSQL recorded: each case below is one state a partial flush left
// behind in a real run, reproduced exactly.
import { Worker } from "bullmq";
import { eventually } from "@catalog/testing";
import {
  DEAD_LETTER_QUEUE,
  publishKeys,
  publishQueueName,
  queuePrefix,
  workerConnection,
} from "@catalog/queue";
import {
  startPipeline,
  syncLogsOf,
  type InjectResponse,
  type Pipeline,
} from "./pipeline-harness.js";
import { objectContaining } from "@catalog/test-support/matchers";

type Jobs = { jobs: { syncLogId: string }[] };
const idsOf = (res: InjectResponse) => res.json<Jobs>().jobs.map((j) => j.syncLogId);

let p: Pipeline;
let keys: ReturnType<typeof publishKeys>;
beforeEach(async () => {
  p = await startPipeline();
  keys = publishKeys(p.config.redisKeyPrefix);
});
afterEach(() => p.close());

const logOf = async (id: string) => (await syncLogsOf(p.db, [id]))[0]!;

/** One publish accepted while no worker runs: its job waits in the destination's queue. */
async function acceptedPublish(store: string) {
  const destination = await p.addDestination(store);
  const [productId] = await p.addProducts(1, store);
  const [id] = idsOf(await p.publish([productId!], [destination]));
  return {
    destination,
    productId: productId!,
    id: id!,
    jobKey: `${keys.bullQueue(destination)}:${id}`,
  };
}

test("a job whose payload a flush deleted after a worker took its id is published from PostgreSQL's record", async () => {
  const { id, jobKey } = await acceptedPublish("payload-lost");
  // The flush reached the job's hash but not yet the wait list holding its id.
  expect(await p.redis.unlink(jobKey)).toBe(1);
  // No recovery pass may add the job again first: the worker must cope with what it takes.
  await p.redis.set(keys.epoch, "before the flush");
  p.startWorker({ RECOVERY_INTERVAL_MS: "600000" });
  await eventually(
    async () => expect(await logOf(id)).toMatchObject({ status: "succeeded", attempts: 1 }),
    15_000,
  );
  expect(p.standin.store("payload-lost").counts.create).toBe(1);
}, 30_000);

test("a leftover job that Redis holds as failed while PostgreSQL says queued is replaced by the recovery, not left to swallow its adds", async () => {
  const { destination, id } = await acceptedPublish("failed-leftover");
  // What a worker did with a job whose payload was gone: failed it in Redis, PostgreSQL untold.
  const connection = workerConnection(p.config);
  const taker = new Worker(publishQueueName(destination), null, {
    connection,
    prefix: queuePrefix(p.config.redisKeyPrefix),
    autorun: false,
  });
  const job = await taker.getNextJob("test-token", { block: false });
  expect(job?.id).toBe(id);
  await job.moveToFailed(new Error("publish job payload does not match its schema"), "test-token");
  await taker.close();
  connection.disconnect();

  p.startWorker();
  await eventually(
    async () => expect(await logOf(id)).toMatchObject({ status: "succeeded", attempts: 1 }),
    15_000,
  );
}, 30_000);

test("after a flush that left a job's hash but not its place in the queue, the publish still completes", async () => {
  const { destination, id } = await acceptedPublish("orphan-hash");
  const queue = keys.bullQueue(destination);
  // The job was added while the flush ran: its hash came after the cursor, the wait list before
  // it. The flush deletes the epoch marker last.
  expect(await p.redis.unlink(`${queue}:wait`, keys.epoch)).toBeGreaterThanOrEqual(1);
  expect(await p.redis.exists(`${queue}:${id}`)).toBe(1);
  p.startWorker();
  await eventually(
    async () => expect(await logOf(id)).toMatchObject({ status: "succeeded", attempts: 1 }),
    15_000,
  );
}, 30_000);

test("a success stays recorded when Redis loses the job before it is moved to completed, even on the last attempt", async () => {
  const { destination, productId, id, jobKey } = await acceptedPublish("late-redis-error");
  p.standin.setFault("late-redis-error", { kind: "slow", delayMs: 2_000 });
  // No recovery pass may add the job again while the call runs: the job stays lost to Redis.
  await p.redis.set(keys.epoch, "before the flush");
  p.startWorker({ PUBLISH_ATTEMPTS: "1", RECOVERY_INTERVAL_MS: "600000" });
  await eventually(async () => {
    expect((await logOf(id)).status).toBe("running");
    expect(p.standin.store("late-redis-error").counts.requests).toBeGreaterThan(0);
  }, 15_000);
  // A flush deletes the job while the channel call is in flight: moving it to completed will fail.
  expect(await p.redis.unlink(jobKey)).toBe(1);

  // Done with the job: its outcome recorded and its per-product lock released.
  await eventually(async () => {
    expect((await logOf(id)).status).not.toBe("running");
    expect(await p.redis.exists(keys.lock(productId, destination))).toBe(0);
  }, 15_000);
  expect(await logOf(id)).toMatchObject({ status: "succeeded", error: null, attempts: 1 });
  const listing = await p.db.listing.findFirstOrThrow({
    where: { productId, destinationAccountId: destination },
  });
  expect(listing).toMatchObject({
    status: "published",
    lastError: null,
    remoteId: p.standin.store("late-redis-error").listings[0]!.id,
  });
  expect(await p.app.queues.deadLetters.getJob(id)).toBeUndefined();
}, 30_000);

test("a dead publish whose dead-letter job Redis refused gets it from the recovery once Redis takes it", async () => {
  const { id } = await acceptedPublish("dlq-refused");
  p.standin.setFault("dlq-refused", { kind: "error", status: 500 });
  // BullMQ counts every add in this key: while it is not a number, Redis refuses adds to the
  // dead-letter queue.
  const counter = `${queuePrefix(p.config.redisKeyPrefix)}:${DEAD_LETTER_QUEUE}:id`;
  await p.redis.set(counter, "not a number");
  p.startWorker();
  await eventually(
    async () => expect(await logOf(id)).toMatchObject({ status: "dead", attempts: 3 }),
    15_000,
  );
  expect(await p.app.queues.deadLetters.getJob(id)).toBeUndefined();

  await p.redis.del(counter);
  await eventually(
    async () =>
      expect(await p.app.queues.deadLetters.getJob(id)).toMatchObject({
        data: objectContaining({ syncLogId: id }),
      }),
    15_000,
  );
  expect((await logOf(id)).status).toBe("dead");
}, 30_000);
