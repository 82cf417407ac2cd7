import type { RedisClient } from "./connections.js";
import { publishKeys } from "./publish-keys.js";
import { readQueueCounts, type QueueCounts } from "./destination-state.js";

export interface PublishQueueDepth {
  /** Jobs over every destination with work. */
  totals: Omit<QueueCounts, "failed">;
  /** Destinations in line (with jobs waiting, delayed or running). */
  destinations: number;
  /** The destinations with the most jobs waiting, most first. */
  top: { destinationId: string; waiting: number }[];
  /** Destinations left uncounted past `maxDestinations` (the totals are then a floor). */
  uncounted: number;
}

const BATCH = 500;

/**
 * The publish queues' depth, for metrics and autoscaling: the destinations in the `ready` line,
 * their queues counted in pipelined batches. Reads at most `maxDestinations` queues, so a scrape
 * stays cheap however many destinations a deployment has.
 */
export async function readPublishQueueDepth(
  redis: RedisClient,
  prefix: string,
  { top = 10, maxDestinations = 20_000 }: { top?: number; maxDestinations?: number } = {},
): Promise<PublishQueueDepth> {
  const keys = publishKeys(prefix);
  const [ids, inLine] = await Promise.all([
    redis.zrange(keys.ready, "0", String(maxDestinations - 1)),
    redis.zcard(keys.ready),
  ]);
  const totals = { waiting: 0, active: 0, delayed: 0 };
  const waiting: { destinationId: string; waiting: number }[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    for (const [destinationId, counts] of await readQueueCounts(
      redis,
      prefix,
      ids.slice(i, i + BATCH),
    )) {
      totals.waiting += counts.waiting;
      totals.active += counts.active;
      totals.delayed += counts.delayed;
      if (counts.waiting > 0) waiting.push({ destinationId, waiting: counts.waiting });
    }
  }
  waiting.sort((a, b) => b.waiting - a.waiting);
  return {
    totals,
    destinations: inLine,
    top: waiting.slice(0, top),
    uncounted: Math.max(0, inLine - ids.length),
  };
}
