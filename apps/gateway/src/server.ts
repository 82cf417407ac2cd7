import { loadGatewayConfig } from "@catalog/config/gateway";
import { createDb } from "@catalog/db";
import { producerConnection } from "@catalog/queue";
import { buildApp } from "./app.js";
import { stopTracing } from "@catalog/tracing";

const config = loadGatewayConfig();
const db = createDb(config.DATABASE_URL);
const redis = producerConnection(config);

const app = await buildApp({ config, db, redis });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, "shutting down");
  // Stop accepting, let in-flight requests finish, then release connections.
  await app.close();
  redis.disconnect();
  await db.$disconnect();
  await stopTracing();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

await app.listen({ host: config.HOST, port: config.PORT });
