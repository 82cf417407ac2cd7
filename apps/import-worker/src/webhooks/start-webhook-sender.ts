import { Worker } from "bullmq";
import type { Logger } from "pino";
import {
  WEBHOOK_QUEUE,
  WebhookQueue,
  queuePrefix,
  workerConnection,
  type RedisEndpoint,
} from "@catalog/queue";
import { createWebhookProcessor, type WebhookSenderDeps } from "./webhook-processor.js";
import { queueTelemetry } from "@catalog/tracing";

export interface WebhookSenderOptions extends Omit<WebhookSenderDeps, "queue"> {
  /** Redis: the sender opens a blocking connection of its own, and closes it. */
  redis: RedisEndpoint;
  redisKeyPrefix: string;
  concurrency: number;
  sweepEveryMs: number;
  log?: Logger;
}

export interface WebhookSender {
  worker: Worker;
  queue: WebhookQueue;
  close(): Promise<void>;
}

/** Parses WEBHOOK_RETRY_DELAYS_MS ("5000,300000,..."). */
export const parseRetryDelays = (spec: string): number[] =>
  spec
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);

/**
 * The webhook sender: a worker on the `webhooks` queue, and the sweep's job scheduler, which
 * enqueues every pending delivery that is due, so a delivery whose job was lost (Redis flushed,
 * a process died mid-attempt) is sent all the same.
 */
export async function startWebhookSender(options: WebhookSenderOptions): Promise<WebhookSender> {
  const connection = workerConnection(options.redis);
  const queue = new WebhookQueue(connection, options.redisKeyPrefix);
  const worker = new Worker(WEBHOOK_QUEUE, createWebhookProcessor({ ...options, queue }), {
    connection,
    prefix: queuePrefix(options.redisKeyPrefix),
    concurrency: options.concurrency,
    telemetry: queueTelemetry(),
  });
  worker.on("error", (err) => options.log?.error({ err }, "webhook worker error"));
  worker.on("failed", (job, err) =>
    options.log?.error({ err, job: job?.id }, "webhook job failed"),
  );
  await queue.scheduleSweep(options.sweepEveryMs);
  return {
    worker,
    queue,
    async close() {
      await worker.close();
      await queue.close();
      connection.disconnect();
    },
  };
}
