import { loadPublishWorkerConfig } from "@catalog/config/publish-worker";
import { createDb } from "@catalog/db";
import { requireNoEviction, startWorkerHealth, workerConnection } from "@catalog/queue";
import { collectDefaultMetrics } from "prom-client";
import { createWorkerLogger } from "./logger.js";
import { createPublishMetrics } from "./metrics.js";
import { startPublishWorker } from "./publish-worker.js";
import { stopTracing } from "@catalog/tracing";

const config = loadPublishWorkerConfig();
const log = createWorkerLogger(config.LOG_LEVEL);
const db = createDb(config.DATABASE_URL, { poolSize: Math.min(20, config.PUBLISH_LANES + 2) });
const redis = workerConnection(config);
await requireNoEviction(redis, log).catch((error: Error) => {
  log.fatal(error.message);
  process.exit(1);
});
const metrics = createPublishMetrics(redis, config.redisKeyPrefix);
collectDefaultMetrics({ register: metrics.registry, prefix: "catalog_publish_worker_" });
const health = await startWorkerHealth({
  host: config.HEALTH_HOST,
  port: config.HEALTH_PORT,
  checks: {
    PostgreSQL: async () => void (await db.$queryRawUnsafe("SELECT 1")),
    Redis: async () => void (await redis.ping()),
  },
  metrics: metrics.registry,
}).catch((error: Error) => {
  log.fatal(error.message);
  process.exit(1);
});
const worker = startPublishWorker({ config, db, redis, log, metrics });
log.info(
  {
    health: `http://${config.HEALTH_HOST}:${health.port}`,
    lanes: config.PUBLISH_LANES,
    pid: process.pid,
  },
  "publish worker started",
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, "shutting down: finishing the jobs in flight");
  await worker.close();
  await health.close();
  redis.disconnect();
  await db.$disconnect();
  await stopTracing();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
