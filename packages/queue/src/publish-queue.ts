import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "./connections.js";
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { findLeftoverJobs } from "./leftover-jobs.js";
import { publishKeys, publishQueueName } from "./publish-keys.js";
import { queuePrefix } from "./scrape-queue.js";
import { queueTelemetry } from "@catalog/tracing";

export const PUBLISH_JOB = "publish";

/** Ids only: the worker reloads product, destination and credentials from PostgreSQL. */
export const PublishJobSchema = Type.Object({
  syncLogId: Type.String({ format: "uuid" }),
  orgId: Type.String({ format: "uuid" }),
  productId: Type.String({ format: "uuid" }),
  destinationAccountId: Type.String({ format: "uuid" }),
});
export type PublishJob = Static<typeof PublishJobSchema>;

export function parsePublishJob(data: unknown): PublishJob {
  if (!Value.Check(PublishJobSchema, data))
    throw new Error("publish job payload does not match its schema");
  return data;
}

/**
 * BullMQ never retries by itself: the worker counts attempts in PostgreSQL (the record) and
 * delays a job for its next attempt, so waits and breaker pauses cost no attempt and a job
 * enqueued again by the recovery keeps its count.
 */
export const PUBLISH_JOB_OPTIONS: JobsOptions = {
  attempts: 1,
  // PostgreSQL keeps the record; Redis keeps finished jobs only briefly, for inspection.
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600, count: 1000 },
};

/**
 * The producer side of the per-destination queues: Queue objects share one connection, and a
 * destination with new work is put on the `ready` set the workers pick destinations from.
 */
export class PublishQueues {
  private readonly queues = new Map<string, Queue<PublishJob>>();
  readonly keys: ReturnType<typeof publishKeys>;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.keys = publishKeys(prefix);
  }

  queue(destinationId: string): Queue<PublishJob> {
    let queue = this.queues.get(destinationId);
    if (!queue) {
      queue = new Queue<PublishJob>(publishQueueName(destinationId), {
        connection: this.redis,
        prefix: queuePrefix(this.prefix),
        telemetry: queueTelemetry(),
      });
      queue.on("error", () => {
        /* the command that failed reports it */
      });
      this.queues.set(destinationId, queue);
    }
    return queue;
  }

  /**
   * Adds the jobs (job id = sync log id, so a job enqueued again is not duplicated), one bulk
   * call per destination, then marks those destinations ready, keeping the place in line of
   * a destination that was already waiting.
   */
  async enqueue(jobs: PublishJob[]): Promise<void> {
    const byDestination = groupByDestination(jobs);
    await Promise.all(
      [...byDestination].map(([destinationId, list]) =>
        this.queue(destinationId).addBulk(
          list.map((data) => ({
            name: PUBLISH_JOB,
            data,
            opts: { ...PUBLISH_JOB_OPTIONS, jobId: data.syncLogId },
          })),
        ),
      ),
    );
    if (byDestination.size > 0) {
      const now = Date.now();
      await this.redis.zadd(
        this.keys.ready,
        "NX",
        ...[...byDestination.keys()].flatMap((id) => [now, id]),
      );
    }
  }

  /**
   * Enqueues publishes that PostgreSQL says are still pending (the recovery). An add whose job id
   * exists is ignored, so a leftover job with that id is removed first: one that Redis holds as
   * finished (completed or failed) and, with `thorough` (Redis lost data), one that is in none of
   * the queue's lists, its hash having outlived a partial flush. Returns how many were replaced.
   */
  async requeue(jobs: PublishJob[], { thorough }: { thorough: boolean }): Promise<number> {
    let replaced = 0;
    for (const [destinationId, list] of groupByDestination(jobs)) {
      const leftovers = await findLeftoverJobs(
        this.redis,
        this.keys.bullQueue(destinationId),
        list.map((j) => j.syncLogId),
        thorough,
      );
      await this.remove(destinationId, leftovers);
      replaced += leftovers.length;
    }
    await this.enqueue(jobs);
    return replaced;
  }

  /**
   * Removes jobs that are not running (a disconnected destination's, replayed ones, leftovers); a
   * missing one is fine.
   */
  async remove(destinationId: string, jobIds: string[]): Promise<void> {
    const queue = this.queue(destinationId);
    for (const id of jobIds) await queue.remove(id).catch(() => 0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}

function groupByDestination(jobs: PublishJob[]): Map<string, PublishJob[]> {
  const byDestination = new Map<string, PublishJob[]>();
  for (const job of jobs) {
    const list = byDestination.get(job.destinationAccountId) ?? [];
    list.push(job);
    byDestination.set(job.destinationAccountId, list);
  }
  return byDestination;
}

/**
 * Dead publishes, one job each (job id = sync log id), for operators' tools. The `dead` sync
 * logs in PostgreSQL are the record that replay reads, so a Redis flush loses nothing here.
 */
export const DEAD_LETTER_QUEUE = "publish-dlq";

export interface DeadLetter extends PublishJob {
  error: string;
}

export function deadLetterQueue(redis: RedisClient, prefix: string): Queue<DeadLetter> {
  const queue = new Queue<DeadLetter>(DEAD_LETTER_QUEUE, {
    connection: redis,
    prefix: queuePrefix(prefix),
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
  });
  queue.on("error", () => {
    /* the command that failed reports it */
  });
  return queue;
}
