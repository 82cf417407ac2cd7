import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import { Type } from "typebox";
import { listPublishRuns, retryFailedCells, type Db } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { ListSchema, errorResponses, toList } from "../../schemas/common.js";
import { assertNoChannelWait } from "../../publishing/channel-wait.js";
import { PENDING_LEASE_MS, enqueueRecorded } from "../../publishing/enqueue-recorded.js";
import { MAX_STREAMS_PER_SESSION } from "./run-events.js";
import { loadRunView } from "./run-view.js";
import {
  PublishRunListQuerySchema,
  PublishRunSchema,
  RetryResultSchema,
  RunSummarySchema,
} from "./schemas.js";

export interface PublishRunRoutesOptions {
  db: Db;
  redis: RedisClient;
  /** Not `prefix`: Fastify reads that option as the routes' URL prefix. */
  redisPrefix: string;
}

const RunParamsSchema = Type.Object({
  id: Type.String({ maxLength: 64, description: "The run id (`runId` of the publish)" }),
});

export const publishRunRoutes: FastifyPluginAsyncTypebox<PublishRunRoutesOptions> = async (
  app,
  { db, redis, redisPrefix: prefix },
) => {
  app.addHook("onRequest", app.requireSession);
  const common = { tags: ["publish"], security: [{ session: [] }] };

  app.get(
    "/publish-runs",
    {
      schema: {
        ...common,
        operationId: "listPublishRuns",
        summary: "The org's publish runs, newest first, each with its cell counts",
        description:
          "Every POST /api/products/publish is one run. A cell is one product on one destination, counted in the state of its latest attempt.",
        querystring: PublishRunListQuerySchema,
        response: { 200: ListSchema(RunSummarySchema), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { items, total } = await listPublishRuns(
        db,
        principalOf(request).org.id,
        request.query,
      );
      return toList(items, total, request.query);
    },
  );

  app.get(
    "/publish-runs/:id",
    {
      schema: {
        ...common,
        operationId: "getPublishRun",
        summary:
          "One publish run: its product x destination matrix, counts, failures grouped by message, and each destination's breaker and channel wait",
        description:
          "Another org's run is 404, as a missing one is. Redis unreachable (breakers and waits live there): 503.",
        params: RunParamsSchema,
        response: { 200: PublishRunSchema, ...errorResponses(401, 404, 429, 503) },
      },
    },
    async (request) =>
      loadRunView(db, redis, prefix, principalOf(request).org.id, request.params.id),
  );

  app.get(
    "/publish-runs/:id/events",
    {
      schema: {
        ...common,
        operationId: "followPublishRun",
        summary: "Follow a publish run live (server-sent events)",
        description:
          "`event: run` with the whole run (as GET /api/publish-runs/{id}) once at the start and whenever it changes " +
          "(read about once a second); a `: heartbeat` comment every 15 s; `event: end` once no cell is queued or running, " +
          `then the stream closes. At most ${MAX_STREAMS_PER_SESSION} streams per session at once (more: 429); short polling of ` +
          "GET /api/publish-runs/{id} is the fallback.",
        params: RunParamsSchema,
        response: {
          200: {
            description: "An event stream",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          ...errorResponses(401, 404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      await app.runEvents.stream(request, reply, request.params.id);
      return reply;
    },
  );

  app.post(
    "/publish-runs/:id/retry",
    {
      schema: {
        ...common,
        operationId: "retryPublishRun",
        summary:
          "Publish again, in the same run, the failed and dead cells whose outcome a retry can change",
        description:
          "Each cell whose latest attempt failed or died and whose failure is `retryable` (an outage or a wait; a product, settings or access failure " +
          "once the product or the store changed after it) gets a new queued attempt (a new sync log) in this run, as a publish does; " +
          "cells whose product was deleted or whose destination was disconnected are left as they are. A dead attempt that is retried " +
          "leaves the dead-letter queue. Nothing to retry: 200 with `retried: 0`. A destination its channel asked to wait: 429, nothing queued. " +
          "Send no body, or `{}` as JSON (it is not read).",
        params: RunParamsSchema,
        response: {
          200: RetryResultSchema,
          ...errorResponses(400, 401, 403, 404, 415, 422, 429, 503),
        },
      },
    },
    async (request) => {
      const orgId = principalOf(request).org.id;
      const runId = request.params.id;
      const { records, replacedDead } = await retryFailedCells(
        db,
        orgId,
        runId,
        PENDING_LEASE_MS,
        (destinationIds) => assertNoChannelWait(redis, prefix, destinationIds),
      );
      if (records.length > 0) await enqueueRecorded(app, request.log, orgId, records);
      // Already `failed` in PostgreSQL, which is what replay and purge read; a dead letter left in
      // Redis is only shown, so failing to remove it is logged, not answered.
      await Promise.all(
        replacedDead.map((id) =>
          app.queues.deadLetters.remove(id).catch((err: unknown) => {
            request.log.warn({ err, syncLogId: id }, "retried dead publish kept its dead letter");
          }),
        ),
      );
      return {
        runId,
        retried: records.length,
        jobs: records.map((r) => ({
          jobId: r.jobId,
          productId: r.productId,
          destinationAccountId: r.destinationAccountId,
          syncLogId: r.syncLogId,
        })),
      };
    },
  );
};
