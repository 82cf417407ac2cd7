import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { listSyncLogs, publishRunHeads, type Db } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses, toList } from "../../schemas/common.js";
import { SyncLogListSchema, SyncLogQuerySchema } from "./schemas.js";

/** Publish attempts as PostgreSQL records them: how a client follows a publish job. */
export const syncLogRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook("onRequest", app.requireSession);

  app.get(
    "/sync-logs",
    {
      schema: {
        tags: ["publish"],
        security: [{ session: [] }],
        operationId: "listSyncLogs",
        summary: "The org's publish jobs (one per product and destination), newest first",
        querystring: SyncLogQuerySchema,
        response: { 200: SyncLogListSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const orgId = principalOf(request).org.id;
      const { items, total, totalExact } = await listSyncLogs(db, orgId, request.query);
      const runIds = items.flatMap((item) => (item.runId ? [item.runId] : []));
      const runs = await publishRunHeads(db, orgId, runIds);
      return { ...toList(items, total, request.query), totalExact, runs };
    },
  );
};
