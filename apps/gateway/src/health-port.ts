import type { Db } from "@catalog/db";
import { startWorkerHealth, type RedisClient } from "@catalog/queue";
import { gatewayRegistry } from "./metrics.js";

/**
 * `/metrics` (and `/healthz`, `/readyz` again) on HEALTH_HOST:HEALTH_PORT, a port of its own that
 * the public Service does not expose, as every worker has: what Prometheus scrapes never shares a
 * port with what the ingress serves.
 */
export function startGatewayHealth(
  { HEALTH_HOST, HEALTH_PORT }: { HEALTH_HOST: string; HEALTH_PORT: number },
  { db, redis }: { db: Db; redis: RedisClient },
) {
  return startWorkerHealth({
    host: HEALTH_HOST,
    port: HEALTH_PORT,
    checks: {
      PostgreSQL: async () => void (await db.$queryRaw`SELECT 1`),
      Redis: async () => void (await redis.ping()),
    },
    metrics: gatewayRegistry,
  });
}
