import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Redis } from "ioredis";
import { Type } from "typebox";
import { ServiceError, type Db } from "@catalog/db";
import { checkDatabase, checkRedis } from "../../plugins/health.js";
import { errorResponses } from "../../schemas/common.js";

const HealthSchema = Type.Object({ ok: Type.Boolean(), latencyMs: Type.Integer(), error: Type.Optional(Type.String()) });

const SystemSchema = Type.Object({
  redis: HealthSchema,
  database: HealthSchema,
  queues: Type.Array(Type.Object({
    destinationAccountId: Type.String(),
    waiting: Type.Integer(), active: Type.Integer(), delayed: Type.Integer(), failed: Type.Integer(), dead: Type.Integer(),
  })),
  dlq: Type.Object({ total: Type.Integer() }),
  breakers: Type.Array(Type.Object({ destinationAccountId: Type.String(), state: Type.String() })),
});

const ActionSchema = Type.Object(
  {
    action: Type.Enum(["replay_dlq", "purge_dlq", "flush_redis"]),
    destinationAccountId: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

/** Admin only. Queues, the DLQ and breakers arrive with the publishing pipeline; until then they are empty. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ db: Db; redis: Redis; labMode: boolean }> = async (app, options) => {
  app.addHook("onRequest", app.requireAdmin);
  const common = { tags: ["system"], security: [{ session: [] }] };

  app.get("/system", {
    schema: { ...common, summary: "Redis and database health, queue depths, DLQ size, breaker states", response: { 200: SystemSchema, ...errorResponses(401, 403) } },
  }, async () => {
    const [redis, database] = await Promise.all([checkRedis(options.redis), checkDatabase(options.db)]);
    return { redis, database, queues: [], dlq: { total: 0 }, breakers: [] };
  });

  app.post("/system", {
    schema: {
      ...common,
      summary: "Recovery actions: replay_dlq, purge_dlq, flush_redis (lab mode only)",
      body: ActionSchema,
      response: { 200: Type.Object({ action: Type.String(), affected: Type.Integer() }), ...errorResponses(400, 401, 403, 422, 501) },
    },
  }, async (request) => {
    if (request.body.action === "flush_redis" && !options.labMode) {
      throw new ServiceError(403, "flush_redis is allowed only when lab mode is enabled (LAB_MODE=true)");
    }
    throw new ServiceError(501, `${request.body.action} is not available yet: the publishing pipeline has not landed`);
  });
};
