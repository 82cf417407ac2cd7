import { Queue, type ConnectionOptions, type JobsOptions } from "bullmq";
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { queuePrefix } from "./scrape-queue.js";
import { queueTelemetry } from "@catalog/tracing";

/**
 * Source watch (issue 29): a watched product's page is fetched again on its schedule. One BullMQ
 * job scheduler per watched product produces its `source-check` jobs; PostgreSQL (the product's
 * `watchSchedule`) is the record, and the import worker re-creates the schedulers from it when it
 * starts, so a Redis that lost them gets them back.
 */
export const SOURCE_WATCH_QUEUE = "source-watch";
export const SOURCE_CHECK_JOB = "source-check";

export const WATCH_SCHEDULES = ["hourly", "daily", "weekly"] as const;
export type WatchScheduleName = (typeof WATCH_SCHEDULES)[number];

/** How often each schedule checks a page. */
export const WATCH_EVERY_MS: Record<WatchScheduleName, number> = {
  hourly: 3_600_000,
  daily: 86_400_000,
  weekly: 604_800_000,
};

export const SourceCheckJobSchema = Type.Object({
  productId: Type.String({ format: "uuid" }),
  /** Asked for by a user ("Check now"), not by the schedule: runs whether or not it is watched. */
  manual: Type.Optional(Type.Boolean()),
});
export type SourceCheckJob = Static<typeof SourceCheckJobSchema>;

export function parseSourceCheckJob(data: unknown): SourceCheckJob {
  if (!Value.Check(SourceCheckJobSchema, data))
    throw new Error("source check job payload does not match its schema");
  return data;
}

/** A check that failed is recorded on the product (`watchLastResult`); the schedule tries again. */
export const SOURCE_CHECK_JOB_OPTIONS: JobsOptions = {
  attempts: 1,
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600, count: 1000 },
};

/** The job scheduler of one product (one per product: upserting it again replaces it). */
export const watchSchedulerId = (productId: string) => `watch-${productId}`;

export function sourceWatchQueue(
  connection: ConnectionOptions,
  prefix: string,
): Queue<SourceCheckJob> {
  return new Queue<SourceCheckJob>(SOURCE_WATCH_QUEUE, {
    connection,
    prefix: queuePrefix(prefix),
    defaultJobOptions: SOURCE_CHECK_JOB_OPTIONS,
    telemetry: queueTelemetry(),
  });
}

/**
 * Creates, changes or (schedule null) removes the product's scheduler. Returns when its next check
 * is due (null when unwatched).
 */
export async function scheduleSourceWatch(
  queue: Queue<SourceCheckJob>,
  productId: string,
  schedule: WatchScheduleName | null,
): Promise<Date | null> {
  const id = watchSchedulerId(productId);
  if (schedule === null) {
    await queue.removeJobScheduler(id);
    return null;
  }
  await queue.upsertJobScheduler(
    id,
    { every: WATCH_EVERY_MS[schedule] },
    { name: SOURCE_CHECK_JOB, data: { productId }, opts: SOURCE_CHECK_JOB_OPTIONS },
  );
  return nextSourceCheck(queue, productId);
}

/** When the product's scheduler runs next, as Redis says (null: no scheduler). */
export async function nextSourceCheck(
  queue: Queue<SourceCheckJob>,
  productId: string,
): Promise<Date | null> {
  const scheduler = await queue.getJobScheduler(watchSchedulerId(productId));
  return scheduler?.next ? new Date(scheduler.next) : null;
}

/** One check at once, outside the schedule ("Check now"). */
export async function enqueueSourceCheck(
  queue: Queue<SourceCheckJob>,
  productId: string,
): Promise<void> {
  await queue.add(SOURCE_CHECK_JOB, { productId, manual: true });
}
