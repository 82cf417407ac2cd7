import fp from "fastify-plugin";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RedisTurn } from "../redis-turn.js";
import { ServiceError } from "@catalog/db";
import { batchedRedisStore } from "./rate-limit-store.js";

export interface RateLimitOptions {
  /** The round trip to Redis of each event-loop turn, shared with the read caches. */
  turn: RedisTurn;
  prefix: string;
  max: number;
  windowSeconds: number;
  /**
   * The budget a request counts against when not its client address's (an API token's own
   * budget), or null for the address's: null itself when that is known without a lookup.
   */
  budgetOf: (request: FastifyRequest) => Promise<string | null> | null;
}

const PROBES = new Set(["/healthz", "/readyz"]);

/**
 * The service's own limiter, with counters in Redis so that every gateway instance shares
 * them (batched per event-loop turn, see rate-limit-store.ts). Routes may add a stricter
 * `config.rateLimit`. If Redis is unreachable the
 * limiter steps aside rather than taking the catalog down with it.
 *
 * The general limit is a root `onRequest` hook rather than the plugin's per-route one, so that
 * it counts before any route's own hooks (such as auth) can end the request.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitOptions) => {
    await app.register(rateLimit, {
      global: false,
      max: options.max,
      timeWindow: options.windowSeconds * 1000,
      // Counters in Redis, one round trip per event-loop turn for all the requests it brought.
      store: batchedRedisStore(options.turn, `${options.prefix}:rate-limit:`),
      skipOnError: true,
      errorResponseBuilder: (_request, context) =>
        rateLimitExceeded(context.max, Math.ceil(context.ttl / 1000)),
    });
    const byAddress = app.rateLimit({
      allowList: (request) => PROBES.has(request.routeOptions.url ?? ""),
    });
    // A valid API token has a budget of its own wherever it calls from (an integration behind a
    // shared address is not limited by its neighbours, nor they by it); a made-up token counts
    // against its address like any request.
    const { budgetOf } = options;
    const byBudget = app.rateLimit({
      keyGenerator: async (request) => (await budgetOf(request)) ?? request.ip,
    });
    app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
      const budget = budgetOf(request);
      const limit = budget !== null && (await budget) ? byBudget : byAddress;
      await limit.call(app, request, reply);
    });
  },
  { name: "rate-limit" },
);

/** The 429 of this service's own limiter, told apart from a channel's wait by its message. */
export function rateLimitExceeded(max: number, retryAfterSeconds: number): ServiceError {
  const seconds = Math.max(1, retryAfterSeconds);
  return new ServiceError(
    429,
    `this service's rate limit was exceeded (${max} requests allowed per window); retry in ${seconds} s`,
    { "retry-after": String(seconds) },
  );
}
