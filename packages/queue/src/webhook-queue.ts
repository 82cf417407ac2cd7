import { Queue, type ConnectionOptions, type JobsOptions } from "bullmq";
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { queuePrefix } from "./scrape-queue.js";
import { queueTelemetry } from "@catalog/tracing";

// Webhooks out: one queue for every org's deliveries. PostgreSQL holds each delivery and its
// attempts; a job only says "try attempt N of delivery D now", so a job lost with Redis is made
// again by the sweep (a job scheduler that enqueues every pending delivery that is due).

export const WEBHOOK_QUEUE = "webhooks";
export const WEBHOOK_DELIVER_JOB = "deliver";
export const WEBHOOK_SWEEP_JOB = "sweep";
export const WEBHOOK_SWEEP_SCHEDULER = "webhook-sweep";

export const WebhookJobSchema = Type.Object({
  deliveryId: Type.String({ format: "uuid" }),
  /** Attempts already made: this job makes attempt `attempts + 1`. */
  attempts: Type.Integer({ minimum: 0 }),
});
export type WebhookJob = Static<typeof WebhookJobSchema>;

export function parseWebhookJob(data: unknown): WebhookJob {
  if (!Value.Check(WebhookJobSchema, data))
    throw new Error("webhook job payload does not match its schema");
  return data;
}

/** One job per attempt: a delivery enqueued twice for the same attempt is one job. */
export const webhookJobId = (job: WebhookJob): string => `${job.deliveryId}.${job.attempts}`;

export const WEBHOOK_JOB_OPTIONS: JobsOptions = {
  // The sender records every attempt in PostgreSQL and schedules the next one itself.
  attempts: 1,
  // Removed at once, so the id of an attempt that is tried again (after a lease) is free.
  removeOnComplete: true,
  removeOnFail: { age: 3600, count: 1000 },
};

export class WebhookQueue {
  readonly queue: Queue;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue(WEBHOOK_QUEUE, {
      connection,
      prefix: queuePrefix(prefix),
      defaultJobOptions: WEBHOOK_JOB_OPTIONS,
      telemetry: queueTelemetry(),
    });
    this.queue.on("error", () => {
      /* the command that failed reports it */
    });
  }

  /** Enqueues attempts (`delayMs` from now); those already queued are not duplicated. */
  async enqueue(jobs: WebhookJob[], delayMs = 0): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue.addBulk(
      jobs.map((data) => ({
        name: WEBHOOK_DELIVER_JOB,
        data,
        opts: { jobId: webhookJobId(data), ...(delayMs > 0 ? { delay: delayMs } : {}) },
      })),
    );
  }

  /** New deliveries (no attempt yet), due at once. */
  enqueueNew(deliveryIds: string[]): Promise<void> {
    return this.enqueue(deliveryIds.map((deliveryId) => ({ deliveryId, attempts: 0 })));
  }

  /** The sweep, every `everyMs`: one scheduler however many senders run. */
  async scheduleSweep(everyMs: number): Promise<void> {
    await this.queue.upsertJobScheduler(
      WEBHOOK_SWEEP_SCHEDULER,
      { every: everyMs },
      { name: WEBHOOK_SWEEP_JOB, data: {}, opts: { removeOnComplete: true, removeOnFail: true } },
    );
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
