import type { Queue } from "bullmq";
import { discardDead, requeueDead, type Db } from "@catalog/db";
import {
  escapeGlob,
  publishKeys,
  unlinkMatching,
  type DeadLetter,
  type PublishQueues,
  type RedisClient,
} from "@catalog/queue";

/**
 * Replayed publishes stay leased this long: if enqueueing them fails half-way, the workers'
 * recovery enqueues them again once the lease runs out.
 */
const REPLAY_LEASE_MS = 60_000;
const REMOVE_CONCURRENCY = 50;

interface Deps {
  db: Db;
  publish: PublishQueues;
  deadLetters: Queue<DeadLetter>;
  /** A replay marks listings queued again: each org's catalog list (which shows them) is told. */
  catalogChanged: (orgId: string) => Promise<void>;
}

/** Dead publishes back to `queued` (attempts 0) and onto their destination's queue again. */
export async function replayDlq(
  { db, publish, deadLetters, catalogChanged }: Deps,
  destinationAccountId?: string,
): Promise<number> {
  const replayed = await requeueDead(db, REPLAY_LEASE_MS, destinationAccountId);
  for (const orgId of new Set(replayed.map((p) => p.orgId))) await catalogChanged(orgId);
  const byDestination = new Map<string, string[]>();
  for (const p of replayed)
    byDestination.set(p.destinationAccountId, [
      ...(byDestination.get(p.destinationAccountId) ?? []),
      p.syncLogId,
    ]);
  // The dead job keeps its id (= sync log id) in the destination's queue until it ages out, and
  // adding a job whose id exists is a no-op: it must go before the same id can be queued again.
  for (const [destinationId, ids] of byDestination) await publish.remove(destinationId, ids);
  await removeDeadLetters(
    deadLetters,
    replayed.map((p) => p.syncLogId),
  );
  await publish.enqueue(
    replayed.map(({ syncLogId, orgId, productId, destinationAccountId: d }) => ({
      syncLogId,
      orgId,
      productId,
      destinationAccountId: d,
    })),
  );
  return replayed.length;
}

/** Dead publishes end as `failed` (their error kept) and leave the dead-letter queue. */
export async function purgeDlq(
  { db, deadLetters }: Deps,
  destinationAccountId?: string,
): Promise<number> {
  const ids = await discardDead(db, destinationAccountId);
  await removeDeadLetters(deadLetters, ids);
  return ids.length;
}

async function removeDeadLetters(deadLetters: Queue<DeadLetter>, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += REMOVE_CONCURRENCY) {
    // A dead letter that is already gone (a Redis flush, an earlier purge) is fine.
    await Promise.all(
      ids.slice(i, i + REMOVE_CONCURRENCY).map((id) => deadLetters.remove(id).catch(() => 0)),
    );
  }
}

/**
 * Deletes every key under `${prefix}:` and nothing else: the Redis server is shared with other
 * deployments and test runs, so FLUSHDB / FLUSHALL are never an option.
 *
 * The scan is not atomic: workers and producers keep writing while it runs, so it can leave half
 * of a job behind (its hash without its place in a list). The epoch marker goes last, so the
 * workers' next recovery pass treats Redis as having lost data after the whole flush (not only
 * after the part a pass saw) and replaces such leftovers from PostgreSQL.
 */
export async function flushPrefix(redis: RedisClient, prefix: string): Promise<number> {
  const deleted = await unlinkMatching(redis, `${escapeGlob(prefix)}:*`);
  return deleted + (await redis.unlink(publishKeys(prefix).epoch));
}
