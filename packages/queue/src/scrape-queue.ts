import { Queue, QueueEvents, type ConnectionOptions } from "bullmq";
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { queueTelemetry } from "@catalog/tracing";

/**
 * One module owns the scrape queue's name, job name, payload and options, so producer and consumer
 * cannot drift.
 */
export const SCRAPE_QUEUE = "scrape";
export const SCRAPE_JOB = "scrape-url";

export const ScrapeJobSchema = Type.Object({
  url: Type.String({ maxLength: 2048 }),
  /** The request that asked, so the worker's log lines can be joined with the gateway's. */
  requestId: Type.String({ maxLength: 128 }),
});
export type ScrapeJob = Static<typeof ScrapeJobSchema>;

/** Returned by the worker: the page's product as extracted, or why there is none. */
export type ScrapeResult =
  | { ok: true; finalUrl: string; rendered: boolean; candidate: unknown }
  | { ok: false; error: string };

export function parseScrapeJob(data: unknown): ScrapeJob {
  if (!Value.Check(ScrapeJobSchema, data))
    throw new Error("scrape job payload does not match its schema");
  return data;
}

export const SCRAPE_JOB_OPTIONS = {
  // A page that failed is reported to the user as a failed item; the user retries, not the queue.
  attempts: 1,
  // Kept long enough for the waiting gateway to read the result, then dropped.
  removeOnComplete: { age: 600 },
  removeOnFail: { age: 600 },
} as const;

/** BullMQ's keys live under the deployment's Redis prefix too. */
export const queuePrefix = (prefix: string) => `${prefix}:bull`;

export function scrapeQueue(
  connection: ConnectionOptions,
  prefix: string,
): Queue<ScrapeJob, ScrapeResult> {
  return new Queue<ScrapeJob, ScrapeResult>(SCRAPE_QUEUE, {
    connection,
    prefix: queuePrefix(prefix),
    defaultJobOptions: SCRAPE_JOB_OPTIONS,
    telemetry: queueTelemetry(),
  });
}

/** Needs a connection of its own: it blocks on Redis while it waits for events. */
export function scrapeQueueEvents(connection: ConnectionOptions, prefix: string): QueueEvents {
  return new QueueEvents(SCRAPE_QUEUE, { connection, prefix: queuePrefix(prefix) });
}
