import { loadGatewayConfig } from "@catalog/config/gateway";
import { createDb } from "@catalog/db";
import { producerConnection, requireNoEviction } from "@catalog/queue";
import { stopTracing } from "@catalog/tracing";
import { collectDefaultMetrics } from "prom-client";
import { buildApp } from "./app.js";
import { startGatewayHealth } from "./health-port.js";
import { setHeapGrowthLimit } from "./heap-growth.js";
import { gatewayRegistry } from "./metrics.js";

const config = loadGatewayConfig();
setHeapGrowthLimit(config.HEAP_GROWING_PERCENT);
collectDefaultMetrics({ register: gatewayRegistry, prefix: "catalog_gateway_" });
const db = createDb(config.DATABASE_URL);
const redis = producerConnection(config);

const app = await buildApp({ config, db, redis });
await requireNoEviction(redis, app.log).catch((error: Error) => {
  app.log.fatal(error.message);
  process.exit(1);
});
const health = await startGatewayHealth(config, { db, redis }).catch((error: Error) => {
  app.log.fatal(error.message);
  process.exit(1);
});
app.log.info({ health: `http://${config.HEALTH_HOST}:${health.port}` }, "metrics and probes");

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, "shutting down");
  // Stop accepting, let in-flight requests finish, then release connections.
  await app.close();
  await health.close();
  redis.disconnect();
  await db.$disconnect();
  await stopTracing();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

await app.listen({ host: config.HOST, port: config.PORT });
