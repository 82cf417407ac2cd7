import { Redis } from "ioredis";

/**
 * For processes that enqueue on behalf of a request (the gateway): commands fail at once when
 * Redis is unreachable, so the request can answer 503 instead of hanging.
 */
export function producerConnection(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  redis.on("error", () => { /* surfaced by the commands that fail and by /readyz */ });
  return redis;
}

/** For workers: BullMQ's blocking reads must wait through a Redis restart, not give up. */
export function workerConnection(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  redis.on("error", () => { /* BullMQ reconnects; workers report through /readyz */ });
  return redis;
}
