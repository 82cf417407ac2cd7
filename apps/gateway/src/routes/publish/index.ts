import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Redis } from "ioredis";
import { Type, type Static } from "typebox";
import { ServiceError, checkPublishTargets, recordPublishRequest, type Db } from "@catalog/db";
import { readChannelWaits } from "@catalog/queue";
import { principalOf } from "../../plugins/auth.js";
import { errorResponses } from "../../schemas/common.js";
import { claimIdempotencyKey } from "./idempotency.js";

const Id = Type.String({ minLength: 1, maxLength: 64 });

const PublishBodySchema = Type.Object({
  productIds: Type.Array(Id, { minItems: 1, maxItems: 500 }),
  destinationAccountIds: Type.Array(Id, { minItems: 1, maxItems: 20 }),
}, { additionalProperties: false });

const PublishResponseSchema = Type.Object({
  accepted: Type.Literal(true),
  jobs: Type.Array(Type.Object({
    jobId: Type.String(), productId: Type.String(), destinationAccountId: Type.String(), syncLogId: Type.String(),
  })),
});
type PublishResponse = Static<typeof PublishResponseSchema>;

/** How long a queued publish may sit untouched before the workers' recovery enqueues it again. */
const PENDING_LEASE_MS = 60_000;

export interface PublishRoutesOptions {
  db: Db;
  redis: Redis;
  // `redisPrefix`, not `prefix`: Fastify reads a plugin option named `prefix` as the routes' URL prefix.
  redisPrefix: string;
  /** How long a keyed publish may hold its Idempotency-Key before a retry may run it. */
  deadlineMs: number;
}

export const publishRoutes: FastifyPluginAsyncTypebox<PublishRoutesOptions> = async (app, { db, redis, redisPrefix: prefix, deadlineMs }) => {
  app.addHook("onRequest", app.requireSession);

  app.post("/products/publish", {
    schema: {
      tags: ["publish"],
      security: [{ session: [] }],
      summary: "Publish products to destination accounts (accepted now, delivered by the publish workers)",
      description: "Writes one `queued` sync log per product x destination, then enqueues one job each on the " +
        "destination's queue. 200 means accepted; follow progress in GET /api/sync-logs or the product's listings. " +
        "With `Idempotency-Key`, a repeat of the same body answers the first result without enqueueing again " +
        "(compared as parsed JSON, so key order does not matter; another body: 422; the first still running: 409, " +
        "until its deadline passes: a request that never finished gives the key up then). A destination its channel asked to wait answers 429.",
      headers: Type.Object({ "idempotency-key": Type.Optional(Type.String()) }),
      body: PublishBodySchema,
      response: { 200: PublishResponseSchema, ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 503) },
    },
  }, async (request, reply) => {
    const orgId = principalOf(request).org.id;
    const key = request.headers["idempotency-key"];
    const claim = key === undefined ? null : await claimIdempotencyKey<PublishResponse>(redis, prefix, orgId, key, request.body, deadlineMs);
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
      const targets = await checkPublishTargets(db, orgId, body.productIds, body.destinationAccountIds);
      const destinationIds = targets.destinations.map((d) => d.id);
      const waits = await readChannelWaits(redis, prefix, destinationIds);
      const longest = [...waits.entries()].sort((a, b) => b[1].until - a[1].until)[0];
      if (longest) {
        const [destinationId, wait] = longest;
        const seconds = Math.max(1, Math.ceil((wait.until - Date.now()) / 1000));
        throw new ServiceError(429,
          `${wait.channel} asked to wait before more publishing to destination ${destinationId}: try again in ${seconds} s ` +
          `(until ${new Date(wait.until).toISOString()}); this is the channel's limit, not the service's`,
          { "retry-after": String(seconds) });
      }
      held?.assertInTime();
      const records = await recordPublishRequest(db, orgId, { productIds: targets.productIds, destinationIds }, PENDING_LEASE_MS);
      try {
        await app.queues.publish.enqueue(records.map((r) => ({ syncLogId: r.syncLogId, orgId, productId: r.productId, destinationAccountId: r.destinationAccountId })));
      } catch (error) {
        // Recorded in PostgreSQL already: the workers' recovery enqueues these once their lease
        // runs out, so the publish is accepted all the same.
        request.log.warn({ err: error, jobs: records.length }, "enqueueing failed; recovery will enqueue these jobs");
      }
      return {
        accepted: true,
        jobs: records.map((r) => ({ jobId: r.jobId, productId: r.productId, destinationAccountId: r.destinationAccountId, syncLogId: r.syncLogId })),
      };
    }
  });
};
