// The webhook sender's process (issue 29): it reads the database (deliveries, endpoints, sealed
// secrets), so it runs beside the import worker rather than inside it, whose start file loads no
// database client (entry-point.test.ts). Same configuration as the import worker.
import { loadImportWorkerConfig } from "@catalog/config/import-worker";
import { logRedaction } from "@catalog/config";
import { createDb, parseKeyring } from "@catalog/db";
import { requireNoEviction, startWorkerHealth, workerConnection } from "@catalog/queue";
import { pino } from "pino";
import { parseRetryDelays, startWebhookSender } from "./webhooks/start-webhook-sender.js";
import { stopTracing, traceLogMixin } from "@catalog/tracing";

const config = loadImportWorkerConfig();
const log = pino({
  level: config.LOG_LEVEL,
  base: { process: "webhook-sender" },
  redact: logRedaction,
  mixin: traceLogMixin(),
});
if (!config.CREDENTIALS_KEYS) {
  log.fatal("CREDENTIALS_KEYS is not set: the webhook sender cannot open the endpoints' secrets");
  process.exit(1);
}
const db = createDb(config.DATABASE_URL, { poolSize: 4 });
const ping = workerConnection(config);
await requireNoEviction(ping, log).catch((error: Error) => {
  log.fatal(error.message);
  process.exit(1);
});
const health = await startWorkerHealth({
  host: config.HEALTH_HOST,
  port: config.HEALTH_PORT,
  checks: {
    Redis: async () => void (await ping.ping()),
    PostgreSQL: async () => void (await db.$queryRaw`SELECT 1`),
  },
}).catch((error: Error) => {
  log.fatal(error.message);
  process.exit(1);
});
const sender = await startWebhookSender({
  db,
  keyring: parseKeyring(config.CREDENTIALS_KEYS),
  redis: config,
  redisKeyPrefix: config.redisKeyPrefix,
  concurrency: config.WEBHOOK_CONCURRENCY,
  sweepEveryMs: config.WEBHOOK_SWEEP_MS,
  policy: { allowPrivate: config.WEBHOOK_PRIVATE_URLS },
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  retry: {
    retryDelaysMs: parseRetryDelays(config.WEBHOOK_RETRY_DELAYS_MS),
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    leaseMs: config.WEBHOOK_TIMEOUT_MS + 60_000,
  },
  log,
});
log.info(
  {
    health: `http://${config.HEALTH_HOST}:${health.port}`,
    concurrency: config.WEBHOOK_CONCURRENCY,
  },
  "webhook sender started",
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, "shutting down: finishing the requests in progress");
  await sender.close();
  await health.close();
  ping.disconnect();
  await db.$disconnect();
  await stopTracing();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
