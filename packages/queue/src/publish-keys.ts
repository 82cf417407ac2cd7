import { queuePrefix } from "./scrape-queue.js";

/**
 * Every Redis key of the publishing pipeline besides BullMQ's own. Redis holds only what can
 * be rebuilt from PostgreSQL: losing any of these delays work, never loses it.
 */
export function publishKeys(prefix: string) {
  const p = `${prefix}:publish`;
  return {
    /**
     * Sorted set of destinations with work: member destination id, score the earliest time worth
     * looking (ms).
     */
    ready: `${p}:ready`,
    /**
     * Hash { until, channel, reason }: the channel asked every worker to wait until `until` (ms).
     */
    wait: (destinationId: string) => `${p}:wait:${destinationId}`,
    /**
     * Hash { state, openedAt, retryAt }: the destination's breaker as every process should see it.
     */
    breaker: (destinationId: string) => `${p}:breaker:${destinationId}`,
    /** Held by the one process sending the half-open probe. */
    probe: (destinationId: string) => `${p}:probe:${destinationId}`,
    /** Held by the lane serving slot `slot` of the destination (per-destination concurrency). */
    lease: (destinationId: string, slot: number) => `${p}:lease:${destinationId}:${slot}`,
    /**
     * When the destination's channel calls of the last second were taken (a sorted set: the
     * per-destination rate limit's sliding window).
     */
    rate: (destinationId: string) => `${p}:rate:${destinationId}`,
    /** Held while one product is being published to one destination. */
    lock: (productId: string, destinationId: string) => `${p}:lock:${productId}:${destinationId}`,
    /** Held by the one process refreshing a destination's access token. */
    refresh: (destinationId: string) => `${p}:refresh:${destinationId}`,
    /** Idempotency record of one publish request. */
    idempotency: (orgId: string, key: string) => `${p}:idem:${orgId}:${key}`,
    /** Exists while Redis still holds what workers enqueued; missing after a flush or restart. */
    epoch: `${p}:epoch`,
    /** Held by the process running the recovery pass. */
    recovery: `${p}:recovery`,
    /** BullMQ's own keys of a destination's queue. */
    bullQueue: (destinationId: string) =>
      `${queuePrefix(prefix)}:${publishQueueName(destinationId)}`,
  };
}

export type PublishKeys = ReturnType<typeof publishKeys>;

/** One BullMQ queue per destination account. */
export const publishQueueName = (destinationId: string) => `publish-${destinationId}`;
