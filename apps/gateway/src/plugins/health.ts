import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { Db } from "@catalog/db";
import { probe, type RedisClient } from "@catalog/queue";

export const checkDatabase = (db: Db) => probe(() => db.$queryRaw`SELECT 1`);
export const checkRedis = (redis: RedisClient) => probe(() => redis.ping());

const HealthSchema = Type.Object({ status: Type.Literal("ok") });
const ReadySchema = Type.Object({ status: Type.Literal("ready") });
const ErrorBody = Type.Object({ error: Type.String() });

/**
 * `/healthz`: the process is alive (no dependency checked). `/readyz`: PostgreSQL and Redis
 * answer, else 503 naming what is down. Both without auth or rate limit, for orchestrators.
 */
export async function healthRoutes(
  app: FastifyInstance,
  { db, redis }: { db: Db; redis: RedisClient },
) {
  app.get("/healthz", { schema: { hide: true, response: { 200: HealthSchema } } }, async () => ({
    status: "ok" as const,
  }));
  app.get(
    "/readyz",
    { schema: { hide: true, response: { 200: ReadySchema, 503: ErrorBody } } },
    async (_request, reply) => {
      const [database, cache] = await Promise.all([checkDatabase(db), checkRedis(redis)]);
      const down = [database.ok ? null : "PostgreSQL", cache.ok ? null : "Redis"].filter(Boolean);
      if (down.length > 0)
        return reply.code(503).send({ error: `not ready: ${down.join(" and ")} unreachable` });
      return { status: "ready" as const };
    },
  );
}
