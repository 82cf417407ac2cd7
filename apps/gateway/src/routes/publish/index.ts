import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ChannelRegistry } from "@catalog/channels";
import type { RedisClient } from "@catalog/queue";
import { Type, type Static } from "typebox";
import {
  checkPublishTargets,
  recordPublishRequest,
  type CredentialKeyring,
  type Db,
} from "@catalog/db";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import { assertNoChannelWait } from "../../publishing/channel-wait.js";
import { PENDING_LEASE_MS, enqueueRecorded } from "../../publishing/enqueue-recorded.js";
import { dryRunPublish } from "./dry-run.js";
import { claimIdempotencyKey } from "./idempotency.js";
import { PublishBodySchema, PublishCheckSchema, PublishResponseSchema } from "./schemas.js";

type PublishResponse = Static<typeof PublishResponseSchema>;

export interface PublishRoutesOptions {
  db: Db;
  redis: RedisClient;
  // `redisPrefix`, not `prefix`: Fastify reads a plugin option named `prefix` as the routes' URL
  // prefix.
  redisPrefix: string;
  /** How long a keyed publish may hold its Idempotency-Key before a retry may run it. */
  deadlineMs: number;
  /** The channels, whose preflight a dry run asks. */
  channels: ChannelRegistry;
  /**
   * Opens destinations' credentials for a dry run's checks that call the channel; null when the
   * gateway holds no keys.
   */
  keyring: CredentialKeyring | null;
}

export const publishRoutes: FastifyPluginAsyncTypebox<PublishRoutesOptions> = async (
  app,
  { db, redis, redisPrefix: prefix, deadlineMs, channels, keyring },
) => {
  app.addHook("onRequest", app.requireSession);

  app.post(
    "/products/publish",
    {
      schema: {
        tags: ["publish"],
        security: [{ session: [] }],
        operationId: "publishProducts",
        summary:
          "Publish products to destination accounts (accepted now, delivered by the publish workers)",
        description:
          "Writes one `queued` sync log per product x destination, then enqueues one job each on the " +
          "destination's queue. 200 means accepted; the request is one publish run (`runId`): follow it at GET /api/publish-runs/{runId} (or its /events stream), in GET /api/sync-logs or in the products' listings. " +
          "With `Idempotency-Key`, a repeat of the same body answers the first result without enqueueing again " +
          "(compared as parsed JSON, so key order does not matter; another body: 422; the first still running: 409, " +
          "until its deadline passes: a request that never finished gives the key up then). A destination its channel asked to wait answers 429.\n\n" +
          "With `dryRun: true` nothing is created (no run, no jobs, no sync logs, no listings, and `Idempotency-Key` is ignored): " +
          "each product x destination is checked against what its channel will demand (the destination's settings, the product's required " +
          "fields and the channel's limits, the same checks a publish gives up with before calling the channel; a destination its channel " +
          "asked to wait is named there instead of answering 429) and the answer lists, per pair, what would fail and why " +
          "(`{ dryRun, items: [{ productId, destinationAccountId, channel, ok, problems: [{ field, message }] }], summary }`). " +
          "The ids are checked as for a publish: an unknown product or destination answers 422. `ok` means nothing the service can check " +
          "stands in the way; the channel may still refuse on its own rules.",
        headers: Type.Object({ "idempotency-key": Type.Optional(Type.String()) }),
        body: PublishBodySchema,
        response: {
          200: Type.Union([PublishResponseSchema, PublishCheckSchema], {
            description: "Accepted (a publish), or what would fail (a dry run)",
          }),
          ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const orgId = principalOf(request).org.id;
      if (request.body.dryRun) {
        const targets = await checkPublishTargets(
          db,
          orgId,
          request.body.productIds,
          request.body.destinationAccountIds,
        );
        // A client that goes away stops checks that call a channel.
        const gone = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) gone.abort();
        };
        reply.raw.once("close", onClose);
        try {
          return await dryRunPublish(
            { db, redis, prefix, channels, keyring },
            orgId,
            targets,
            gone.signal,
          );
        } finally {
          reply.raw.off("close", onClose);
        }
      }
      const key = request.headers["idempotency-key"];
      const claim =
        key === undefined
          ? null
          : await claimIdempotencyKey<PublishResponse>(
              redis,
              prefix,
              orgId,
              key,
              request.body,
              deadlineMs,
            );
      if (claim?.replay) return reply.header("idempotent-replayed", "true").send(claim.replay);
      const held = claim?.replay === null ? claim : null;
      try {
        const response = await publish(request.body);
        await held?.complete(response);
        return response;
      } catch (error) {
        await held?.abandon().catch(() => {});
        throw error;
      }

      async function publish(body: Static<typeof PublishBodySchema>): Promise<PublishResponse> {
        const targets = await checkPublishTargets(
          db,
          orgId,
          body.productIds,
          body.destinationAccountIds,
        );
        const destinationIds = targets.destinations.map((d) => d.id);
        await assertNoChannelWait(redis, prefix, destinationIds);
        held?.assertInTime();
        const actor = { type: "user" as const, id: principalOf(request).user.id };
        const records = await recordPublishRequest(
          db,
          orgId,
          { productIds: targets.productIds, destinationIds, skip: body.skip },
          PENDING_LEASE_MS,
          actor,
        );
        await enqueueRecorded(app, request.log, orgId, records);
        return {
          accepted: true,
          runId: records[0]!.runId!,
          jobs: records.map((r) => ({
            jobId: r.jobId,
            productId: r.productId,
            destinationAccountId: r.destinationAccountId,
            syncLogId: r.syncLogId,
          })),
        };
      }
    },
  );
};
