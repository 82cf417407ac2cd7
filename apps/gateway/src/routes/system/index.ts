import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import { ServiceError, countDead, type Db } from "@catalog/db";
import {
  allConnectedDestinationIds,
  destinationExists,
  readDestinationStatuses,
  type DestinationStatus,
} from "../../destination-status.js";
import { checkDatabase, checkRedis } from "../../plugins/health.js";
import { errorResponses } from "../../schemas/common.js";
import { flushPrefix, purgeDlq, replayDlq } from "./recovery-actions.js";
import { ActionResultSchema, ActionSchema, SystemSchema } from "./schemas.js";

export interface SystemOptions {
  db: Db;
  redis: RedisClient;
  /**
   * The deployment's Redis key prefix (not `prefix`: Fastify reads that option as the routes' URL
   * prefix).
   */
  redisPrefix: string;
  labMode: boolean;
}

/**
 * The platform operator's (role `admin`) only: queues, the DLQ and the recovery actions cover
 * every org's destinations, so an org's members and owners are refused (403), whatever org.
 */
export const systemRoutes: FastifyPluginAsyncTypebox<SystemOptions> = async (
  app,
  { db, redis, redisPrefix: prefix, labMode },
) => {
  app.addHook("onRequest", app.requireAdmin);
  const common = { tags: ["system"], security: [{ session: [] }] };
  const readAllStatuses = async () =>
    readDestinationStatuses(db, redis, prefix, await allConnectedDestinationIds(db));
  const none = () => new Map<string, DestinationStatus>();

  app.get(
    "/system",
    {
      schema: {
        ...common,
        operationId: "getSystemStatus",
        summary:
          "Redis and database health, queue depths per destination, DLQ size, breaker states (every org)",
        description:
          "The platform operator's only (role admin): without a session 401, an org's member or owner 403.",
        response: { 200: SystemSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const [health, database] = await Promise.all([checkRedis(redis), checkDatabase(db)]);
      // This is where an operator looks when something is down, so it answers whatever it can:
      // the health parts always, the rest only when the stores it needs answer (else empty, or a
      // DLQ total of 0 beside `database.ok: false`), rather than a bare 500.
      const [statuses, total] = await Promise.all([
        health.ok && database.ok
          ? readAllStatuses().catch((err: unknown) => {
              request.log.warn({ err }, "system view: could not read queue and breaker state");
              return none();
            })
          : none(),
        database.ok
          ? countDead(db).catch((err: unknown) => {
              request.log.warn({ err }, "system view: could not count dead publishes");
              return 0;
            })
          : 0,
      ]);
      const entries = [...statuses];
      return {
        labMode,
        redis: health,
        database,
        queues: entries.map(([destinationAccountId, s]) => ({ destinationAccountId, ...s.queue })),
        dlq: { total },
        breakers: entries.map(([destinationAccountId, s]) => ({
          destinationAccountId,
          ...s.breaker,
        })),
      };
    },
  );

  app.post(
    "/system",
    {
      schema: {
        ...common,
        operationId: "runSystemAction",
        summary: "Recovery actions: replay_dlq, purge_dlq, flush_redis (lab mode only)",
        description:
          "The platform operator's only (role admin): without a session 401, an org's member or owner 403. " +
          "replay_dlq and purge_dlq act on every org's dead publishes, or on one destination account's with " +
          "`destinationAccountId`. flush_redis deletes only the keys under this deployment's Redis prefix.",
        body: ActionSchema,
        response: {
          200: ActionResultSchema,
          ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request) => {
      const { action, destinationAccountId } = request.body;
      if (action === "flush_redis") {
        if (!labMode)
          throw new ServiceError(
            403,
            "flush_redis is allowed only when lab mode is enabled (LAB_MODE=true)",
          );
        // Refused rather than ignored, so nobody believes they flushed one destination only.
        if (destinationAccountId !== undefined)
          throw new ServiceError(
            422,
            'body field "destinationAccountId" applies only to replay_dlq and purge_dlq',
          );
        const affected = await flushPrefix(redis, prefix);
        request.log.warn(
          { prefix, affected },
          "flush_redis: every key under the deployment's prefix was deleted",
        );
        return { action, affected };
      }
      if (
        destinationAccountId !== undefined &&
        !(await destinationExists(db, destinationAccountId))
      ) {
        throw new ServiceError(404, `destination account ${destinationAccountId} not found`);
      }
      const deps = {
        db,
        publish: app.queues.publish,
        deadLetters: app.queues.deadLetters,
        catalogChanged: (orgId: string) => app.caches.catalogChanged(orgId),
      };
      const affected =
        action === "replay_dlq"
          ? await replayDlq(deps, destinationAccountId)
          : await purgeDlq(deps, destinationAccountId);
      return { action, affected };
    },
  );
};
