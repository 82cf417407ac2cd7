import { Worker } from "bullmq";
import { loadImportWorkerConfig } from "@catalog/config/import-worker";
import { logRedaction, redactUrl } from "@catalog/config";
import { retentionPolicyOf } from "@catalog/db/retention";
import { createRenderer } from "@catalog/fetch";
import {
  SCRAPE_QUEUE,
  queuePrefix,
  requireNoEviction,
  scrapeQueue,
  startWorkerHealth,
  workerConnection,
  type ScrapeJob,
  type ScrapeResult,
} from "@catalog/queue";
import { pino } from "pino";
import { collectDefaultMetrics } from "prom-client";
import { createImportMetrics } from "./metrics.js";
import { createScrapeProcessor } from "./scrape-processor.js";
import { startRetention } from "./retention/start.js";
import { startSourceWatch } from "./source-watch/start.js";
import { queueTelemetry, stopTracing, traceLogMixin } from "@catalog/tracing";

const config = loadImportWorkerConfig();
const log = pino({
  level: config.LOG_LEVEL,
  base: { process: "import-worker" },
  redact: logRedaction,
  mixin: traceLogMixin(),
});
const policy = { allowPrivate: config.LOCAL_INGEST };
const renderer = config.BROWSER_FALLBACK
  ? createRenderer({
      policy,
      concurrency: config.RENDER_CONCURRENCY,
      executablePath: config.CHROMIUM_PATH,
      rendererUrl: config.RENDERER_URL || undefined,
    })
  : null;

const connection = workerConnection(config);
await requireNoEviction(connection, log).catch((error: Error) => {
  log.fatal(error.message);
  process.exit(1);
});
const queue = scrapeQueue(connection, config.redisKeyPrefix);
const metrics = createImportMetrics(queue);
collectDefaultMetrics({ register: metrics.registry, prefix: "catalog_import_worker_" });
const health = await startWorkerHealth({
  host: config.HEALTH_HOST,
  port: config.HEALTH_PORT,
  checks: { Redis: async () => void (await connection.ping()) },
  metrics: metrics.registry,
}).catch((error: Error) => {
  log.fatal(error.message);
  process.exit(1);
});
const reader = {
  policy,
  renderer,
  fetchTimeoutMs: config.FETCH_TIMEOUT_MS,
  renderTimeoutMs: config.RENDER_TIMEOUT_MS,
  maxBytes: config.FETCH_MAX_BYTES,
};
const worker = new Worker<ScrapeJob, ScrapeResult>(SCRAPE_QUEUE, createScrapeProcessor(reader), {
  connection,
  prefix: queuePrefix(config.redisKeyPrefix),
  concurrency: config.IMPORT_CONCURRENCY,
  telemetry: queueTelemetry(),
});
worker.on("error", (err) => log.error({ err }, "worker error"));
worker.on("completed", (job, result) => {
  metrics.page(result.ok ? "ok" : "failed", result.ok && result.rendered);
  log.info({ reqId: job.data.requestId, url: redactUrl(job.data.url), ok: result.ok }, "scraped");
});
worker.on("failed", () => metrics.page("error", false));

// Source watch (issue 29): its schedulers are made again from PostgreSQL before it takes a job.
const closeSourceWatch = config.SOURCE_WATCH
  ? await startSourceWatch({
      databaseUrl: config.DATABASE_URL,
      connection,
      redisKeyPrefix: config.redisKeyPrefix,
      concurrency: config.WATCH_CONCURRENCY,
      hostGapMs: config.WATCH_HOST_GAP_MS,
      reader,
      log,
    }).catch((error: Error) => {
      log.fatal({ err: error }, "source watch could not start");
      process.exit(1);
    })
  : null;

// Retention (issue 32): one pass every RETENTION_INTERVAL_MS across the deployment.
const closeRetention = config.RETENTION
  ? await startRetention({
      databaseUrl: config.DATABASE_URL,
      connection,
      redisKeyPrefix: config.redisKeyPrefix,
      everyMs: config.RETENTION_INTERVAL_MS,
      policy: retentionPolicyOf(config),
      registry: metrics.registry,
      log,
    }).catch((error: Error) => {
      log.fatal({ err: error }, "retention could not start");
      process.exit(1);
    })
  : null;

log.info(
  {
    health: `http://${config.HEALTH_HOST}:${health.port}`,
    concurrency: config.IMPORT_CONCURRENCY,
    browserFallback: Boolean(renderer),
    renderer: config.RENDERER_URL || "launched here",
    sourceWatch: config.SOURCE_WATCH,
    retention: config.RETENTION,
  },
  "import worker started",
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, "shutting down: finishing the pages in progress");
  // close() waits for the active jobs; waiting ones stay in Redis for another worker.
  await worker.close();
  await closeSourceWatch?.();
  await closeRetention?.();
  await renderer?.close();
  await queue.close();
  await health.close();
  connection.disconnect();
  await stopTracing();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
