import type { FastifyRateLimitOptions, FastifyRateLimitStore } from "@fastify/rate-limit";
import type { CountDone, RedisTurn } from "../redis-turn.js";

/**
 * A @fastify/rate-limit store over Redis whose increments are batched per event-loop turn
 * (`RedisTurn`, with the read caches' version checks). Fixed windows only: `continueExceeding` and `exponentialBackoff` are not
 * supported (this service uses neither) and are refused rather than ignored.
 */
export function batchedRedisStore(turn: RedisTurn, keyPrefix: string) {
  class BatchedRedisStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(options: FastifyRateLimitOptions, prefix = keyPrefix) {
      const { continueExceeding, exponentialBackoff } = options as {
        continueExceeding?: boolean;
        exponentialBackoff?: boolean;
      };
      if (continueExceeding || exponentialBackoff)
        throw new Error("the batched rate-limit store supports fixed windows only");
      this.prefix = prefix;
    }
    incr(key: string, done: CountDone, timeWindow: number): void {
      turn.count(this.prefix + key, timeWindow, done);
    }
    // A route with its own `config.rateLimit` counts under its own keys, as RedisStore does.
    child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]): FastifyRateLimitStore {
      const { routeInfo } = routeOptions as unknown as {
        routeInfo: { method: string; url: string };
      };
      return new BatchedRedisStore(
        routeOptions,
        `${this.prefix}${routeInfo.method}${routeInfo.url}-`,
      );
    }
  }
  return BatchedRedisStore;
}
