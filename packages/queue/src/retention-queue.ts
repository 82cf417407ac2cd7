import { Queue, type ConnectionOptions, type JobsOptions } from "bullmq";
import { queuePrefix } from "./scrape-queue.js";

/**
 * Retention (issue 32): one BullMQ job scheduler, however many import workers run, produces a
 * `retention-pass` job every RETENTION_INTERVAL_MS; an import worker runs it under a PostgreSQL
 * advisory lock (the CLI's `retention` command takes the same lock). Each import worker upserts
 * the scheduler when it starts, so a Redis that lost it gets it back.
 */
export const RETENTION_QUEUE = "retention";
export const RETENTION_PASS_JOB = "retention-pass";
export const RETENTION_SCHEDULER = "retention-pass";

/** A pass that fails is logged; the next interval runs another. */
export const RETENTION_JOB_OPTIONS: JobsOptions = {
  attempts: 1,
  removeOnComplete: { count: 50 },
  removeOnFail: { count: 50 },
};

export function retentionQueue(connection: ConnectionOptions, prefix: string): Queue {
  return new Queue(RETENTION_QUEUE, {
    connection,
    prefix: queuePrefix(prefix),
    defaultJobOptions: RETENTION_JOB_OPTIONS,
  });
}

/** Creates or changes the scheduler of the pass (every `everyMs`). */
export async function scheduleRetention(queue: Queue, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    RETENTION_SCHEDULER,
    { every: everyMs },
    { name: RETENTION_PASS_JOB, data: {}, opts: RETENTION_JOB_OPTIONS },
  );
}
