import { Worker } from "bullmq";
import type { Logger } from "pino";
import { createDb } from "@catalog/db/source-watch";
import {
  PublishQueues,
  SOURCE_WATCH_QUEUE,
  queuePrefix,
  sourceWatchQueue,
  type RedisClient,
  type SourceCheckJob,
} from "@catalog/queue";
import type { PageReaderDeps } from "../page-reader.js";
import { HostGate } from "./host-pace.js";
import { restoreSourceWatches } from "./restore-schedulers.js";
import { createSourceCheckProcessor, type SourceCheckResult } from "./source-check-processor.js";
import { queueTelemetry } from "@catalog/tracing";

export interface SourceWatchOptions {
  databaseUrl: string;
  connection: RedisClient;
  redisKeyPrefix: string;
  concurrency: number;
  hostGapMs: number;
  reader: PageReaderDeps;
  log: Logger;
}

/**
 * The source watch of an import worker: the schedulers made again from PostgreSQL, then a Worker
 * on the `source-watch` queue. Returns its closer.
 */
export async function startSourceWatch(options: SourceWatchOptions): Promise<() => Promise<void>> {
  const { connection, redisKeyPrefix: prefix, log } = options;
  const db = createDb(options.databaseUrl, { poolSize: options.concurrency + 1 });
  const queue = sourceWatchQueue(connection, prefix);
  const publish = new PublishQueues(connection, prefix);
  // A fetch (redirects and body included) ends within its timeout; a render within its own.
  const leaseMs = options.reader.fetchTimeoutMs + options.reader.renderTimeoutMs + 5_000;
  const gate = new HostGate(connection, prefix, { gapMs: options.hostGapMs, leaseMs });
  const restored = await restoreSourceWatches(db, queue);
  log.info(restored, "source watch schedulers restored from PostgreSQL");
  const worker = new Worker<SourceCheckJob, SourceCheckResult>(
    SOURCE_WATCH_QUEUE,
    createSourceCheckProcessor({ db, queue, publish, gate, reader: options.reader }),
    {
      connection,
      prefix: queuePrefix(prefix),
      concurrency: options.concurrency,
      telemetry: queueTelemetry(),
    },
  );
  worker.on("error", (err) => log.error({ err }, "source watch worker error"));
  worker.on("completed", (job, result) =>
    log.info({ productId: job.data.productId, ...result }, "source re-checked"),
  );
  worker.on("failed", (job, err) =>
    log.error({ productId: job?.data.productId, err }, "source re-check failed"),
  );
  return async () => {
    await worker.close();
    await publish.close();
    await queue.close();
    await db.$disconnect();
  };
}
