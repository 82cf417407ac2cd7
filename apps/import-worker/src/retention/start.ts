import { Worker } from "bullmq";
import type { Logger } from "pino";
import { Counter, Histogram, type Registry } from "prom-client";
import {
  runRetentionPass,
  type RetentionOutcome,
  type RetentionPolicy,
  type RetentionRemoved,
} from "@catalog/db/retention";
import {
  RETENTION_QUEUE,
  queuePrefix,
  retentionQueue,
  scheduleRetention,
  type RedisClient,
} from "@catalog/queue";

export interface RetentionOptions {
  databaseUrl: string;
  connection: RedisClient;
  redisKeyPrefix: string;
  everyMs: number;
  policy: RetentionPolicy;
  registry: Registry;
  log: Logger;
}

/**
 * The periodic retention pass of an import worker: the scheduler upserted, then a Worker (one
 * pass at a time here; the advisory lock keeps other replicas and the CLI out) on the `retention`
 * queue. Counts what it removed and how long it took in the worker's metrics. Returns its closer.
 */
export async function startRetention(options: RetentionOptions): Promise<() => Promise<void>> {
  const { connection, redisKeyPrefix: prefix, log } = options;
  const registers = [options.registry];
  const removedTotal = new Counter({
    name: "catalog_retention_removed_total",
    help: "Rows the retention pass removed, by kind (syncLogs, productHistory, importRows, imports, sessions)",
    labelNames: ["kind"] as const,
    registers,
  });
  const passSeconds = new Histogram({
    name: "catalog_retention_pass_seconds",
    help: "How long a retention pass took (passes another replica was running are not counted)",
    buckets: [1, 5, 15, 60, 300, 900, 3600],
    registers,
  });
  const queue = retentionQueue(connection, prefix);
  await scheduleRetention(queue, options.everyMs);
  const stopping = new AbortController();
  const worker = new Worker<unknown, RetentionOutcome>(
    RETENTION_QUEUE,
    async () => {
      const outcome = await runRetentionPass(options.databaseUrl, options.policy, {
        signal: stopping.signal,
      });
      if (outcome.ran) {
        const removed = outcome.removed;
        for (const kind of Object.keys(removed) as (keyof RetentionRemoved)[])
          removedTotal.inc({ kind }, removed[kind]);
        passSeconds.observe(outcome.durationMs / 1000);
      }
      return outcome;
    },
    { connection, prefix: queuePrefix(prefix), concurrency: 1 },
  );
  worker.on("error", (err) => log.error({ err }, "retention worker error"));
  worker.on("completed", (_job, outcome) => {
    if (outcome.ran) log.info({ ...outcome }, "retention pass done");
    else log.info({ reason: outcome.reason }, "retention pass skipped");
  });
  worker.on("failed", (_job, err) => log.error({ err }, "retention pass failed"));
  return async () => {
    stopping.abort();
    await worker.close();
    await queue.close();
  };
}
