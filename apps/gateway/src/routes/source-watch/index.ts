import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import {
  ServiceError,
  checkableProduct,
  recordNextSourceCheck,
  setProductWatch,
  type Db,
} from "@catalog/db";
import { enqueueSourceCheck, scheduleSourceWatch } from "@catalog/queue";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import { WatchSchema } from "../../schemas/watch.js";
import { CheckQueuedSchema, WatchBodySchema, WatchParamsSchema } from "./schemas.js";

/** Redis out of reach: 503, to be sent again (both routes are safe to repeat). */
async function queued<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch {
    throw new ServiceError(
      503,
      "the source watch queue is unavailable; try again in a moment (a schedule already recorded is made again when an import worker starts)",
      { "retry-after": "5" },
    );
  }
}

/**
 * Source watch (issue 29): a product imported from a page is fetched again on a schedule by the
 * import workers. PostgreSQL records the schedule first, then the product's BullMQ job scheduler is
 * made (the workers make it again from PostgreSQL when they start).
 */
export const sourceWatchRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook("onRequest", app.requireSession);
  const common = { tags: ["products"], security: [{ session: [] }] };

  app.put(
    "/products/:id/watch",
    {
      schema: {
        ...common,
        operationId: "setProductWatch",
        summary: "Watch the product's source page on a schedule, or stop watching it",
        description:
          "`schedule` hourly, daily or weekly: the import workers fetch the product's `sourceUrl` again that often, at a polite " +
          "pace per host, and a new price, availability or quantity updates the product (history: system `source-recheck`), " +
          "which automatic sync carries to its listings. A page that is gone (404/410) or shows no product any more marks it " +
          "out of stock. null stops watching. A product without a `sourceUrl` is 422.",
        params: WatchParamsSchema,
        body: WatchBodySchema,
        response: { 200: WatchSchema, ...errorResponses(400, 401, 404, 415, 422, 503) },
      },
    },
    async (request) => {
      const orgId = principalOf(request).org.id;
      const { id } = request.params;
      const watch = await setProductWatch(db, orgId, id, request.body.schedule);
      const next = await queued(() =>
        scheduleSourceWatch(app.queues.sourceWatch, id, request.body.schedule),
      );
      if (!watch) return null;
      await recordNextSourceCheck(db, id, next);
      return { ...watch, nextCheckAt: next?.toISOString() ?? null };
    },
  );

  app.post(
    "/products/:id/watch/check",
    {
      schema: {
        ...common,
        operationId: "checkProductSource",
        summary: "Check the product's source page now",
        description:
          "Queues one re-check of the product's `sourceUrl` outside its schedule (watched or not), at the same pace per host " +
          "as scheduled ones; its result shows in the product's `watch` (when watched) and history. A product without a " +
          "`sourceUrl` is 422.",
        params: WatchParamsSchema,
        response: {
          202: CheckQueuedSchema,
          ...errorResponses(401, 404, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await checkableProduct(db, principalOf(request).org.id, id);
      await queued(() => enqueueSourceCheck(app.queues.sourceWatch, id));
      return reply.code(202).send({ queued: true as const });
    },
  );
};
