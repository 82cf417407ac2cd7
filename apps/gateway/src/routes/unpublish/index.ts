import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import { Type, type Static } from "typebox";
import { checkPublishTargets, planListingEnds, type Db } from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import { PENDING_LEASE_MS, enqueueRecorded } from "../../publishing/enqueue-recorded.js";
import { claimIdempotencyKey } from "../publish/idempotency.js";
import { UnpublishBodySchema, UnpublishResponseSchema } from "./schemas.js";

type UnpublishResponse = Static<typeof UnpublishResponseSchema>;

export interface UnpublishRoutesOptions {
  db: Db;
  redis: RedisClient;
  /** Not `prefix`: Fastify reads a plugin option named `prefix` as the routes' URL prefix. */
  redisPrefix: string;
  /** How long a keyed request may hold its Idempotency-Key before a retry may run it. */
  deadlineMs: number;
}

export const unpublishRoutes: FastifyPluginAsyncTypebox<UnpublishRoutesOptions> = async (
  app,
  { db, redis, redisPrefix: prefix, deadlineMs },
) => {
  app.addHook("onRequest", app.requireSession);

  app.post(
    "/products/unpublish",
    {
      schema: {
        tags: ["publish"],
        security: [{ session: [] }],
        operationId: "unpublishProducts",
        summary:
          "End products' listings on destination accounts (accepted now, ended by the publish workers)",
        description:
          "For each product x destination whose listing is live on the store, writes one queued `end` sync log (its trigger " +
          "names who unpublished), turns the listing `ending` and enqueues one job on the destination's queue; the worker calls the " +
          "channel's documented delete or withdraw and the listing becomes `ended`. Follow them in GET /api/sync-logs or in the " +
          "products' listings. Pairs with nothing live are answered in `skipped` with the reason (a listing that never reached the " +
          "store is marked ended there and then). Any member may unpublish, as for a publish. An unknown product, or an unknown or " +
          "disconnected destination, is 422 naming it. `Idempotency-Key` works as for a publish (a key is one request: the same key " +
          "with a publish body is another request, 422).",
        headers: Type.Object({ "idempotency-key": Type.Optional(Type.String()) }),
        body: UnpublishBodySchema,
        response: {
          202: UnpublishResponseSchema,
          ...errorResponses(400, 401, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const orgId = principal.org.id;
      const key = request.headers["idempotency-key"];
      // The route is part of what the key stands for: a publish's key is not an unpublish's.
      const claim =
        key === undefined
          ? null
          : await claimIdempotencyKey<UnpublishResponse>(
              redis,
              prefix,
              orgId,
              key,
              { unpublish: request.body },
              deadlineMs,
            );
      if (claim?.replay)
        return reply.code(202).header("idempotent-replayed", "true").send(claim.replay);
      const held = claim?.replay === null ? claim : null;
      try {
        const targets = await checkPublishTargets(
          db,
          orgId,
          request.body.productIds,
          request.body.destinationAccountIds,
        );
        held?.assertInTime();
        const { records, skipped } = await planListingEnds(db, {
          orgId,
          productIds: targets.productIds,
          destinationIds: targets.destinations.map((d) => d.id),
          trigger: `unpublished by ${principal.user.email}`,
          leaseMs: PENDING_LEASE_MS,
        });
        await enqueueRecorded(app, request.log, orgId, records);
        const response: UnpublishResponse = {
          accepted: true,
          jobs: records.map((r) => ({
            jobId: r.jobId,
            productId: r.productId,
            destinationAccountId: r.destinationAccountId,
            syncLogId: r.syncLogId,
          })),
          skipped,
        };
        await held?.complete(response);
        return reply.code(202).send(response);
      } catch (error) {
        await held?.abandon().catch(() => {});
        throw error;
      }
    },
  );
};
