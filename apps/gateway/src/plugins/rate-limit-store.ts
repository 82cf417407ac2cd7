import { createHash } from "node:crypto";
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from "@fastify/rate-limit";
import type { RedisClient } from "@catalog/queue";

// For each counter: add the requests it got in this turn, start its window if it is new, and
// answer its count and the window's remaining time. The same as @fastify/rate-limit's RedisStore
// (INCR, PEXPIRE on the first hit, else PTTL) for many counters and many hits at once.
const INCREMENT = `
local out = {}
local n = #KEYS
for i = 1, n do
  local hits = tonumber(ARGV[i])
  local window = tonumber(ARGV[n + i])
  local current = redis.call('INCRBY', KEYS[i], hits)
  local ttl
  if current == hits then
    redis.call('PEXPIRE', KEYS[i], window)
    ttl = window
  else
    ttl = redis.call('PTTL', KEYS[i])
  end
  out[2 * i - 1] = current
  out[2 * i] = ttl
end
return out`;
const INCREMENT_SHA = createHash("sha1").update(INCREMENT).digest("hex");

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface Counter {
  window: number;
  waiting: Done[];
}

/**
 * The counters of every request that arrives in one turn of the event loop go to Redis in one
 * script, sent when the turn ends (as the read caches' version check does): under load the
 * limiter costs a fraction of a round trip per request instead of one each. Each request still
 * gets its own count, as if its INCR had been sent alone, so the limit is exactly as strict.
 * All keys share the prefix's hash tag, so the script runs on one node of a Redis Cluster too.
 */
class CounterBatches {
  private batch: Map<string, Counter> | null = null;

  constructor(private readonly redis: RedisClient) {}

  increment(key: string, window: number, done: Done): void {
    if (!this.batch) {
      const batch = new Map<string, Counter>();
      this.batch = batch;
      setImmediate(() => {
        this.batch = null;
        void this.send(batch);
      });
    }
    const counter = this.batch.get(key);
    if (counter) counter.waiting.push(done);
    else this.batch.set(key, { window, waiting: [done] });
  }

  private async send(batch: Map<string, Counter>): Promise<void> {
    const keys = [...batch.keys()];
    const counters = [...batch.values()];
    const args = [...counters.map((c) => c.waiting.length), ...counters.map((c) => c.window)];
    let answer: number[];
    try {
      try {
        answer = (await this.redis.evalsha(
          INCREMENT_SHA,
          keys.length,
          ...keys,
          ...args,
        )) as number[];
      } catch (error) {
        // A Redis that restarted or was flushed of scripts: send the script itself once.
        if (!String(error).includes("NOSCRIPT")) throw error;
        answer = (await this.redis.eval(INCREMENT, keys.length, ...keys, ...args)) as number[];
      }
    } catch (error) {
      for (const counter of counters) for (const done of counter.waiting) done(error as Error);
      return;
    }
    counters.forEach((counter, i) => {
      const last = answer[2 * i] ?? 0;
      const ttl = answer[2 * i + 1] ?? 0;
      const first = last - counter.waiting.length + 1;
      counter.waiting.forEach((done, k) => done(null, { current: first + k, ttl }));
    });
  }
}

/**
 * A @fastify/rate-limit store over Redis whose increments are batched per event-loop turn
 * (`CounterBatches`). Fixed windows only: `continueExceeding` and `exponentialBackoff` are not
 * supported (this service uses neither) and are refused rather than ignored.
 */
export function batchedRedisStore(redis: RedisClient, keyPrefix: string) {
  const batches = new CounterBatches(redis);
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
    incr(key: string, done: Done, timeWindow: number): void {
      batches.increment(this.prefix + key, timeWindow, done);
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
