import type { RedisClient } from "./connections.js";
import { publishKeys } from "./publish-keys.js";

/** A wait a channel imposed on one destination (429, Retry-After, throttled). */
export interface ChannelWait {
  until: number;
  channel: string;
  reason: string;
}

export type BreakerStateName = "closed" | "open" | "halfOpen";

export interface BreakerSnapshot {
  state: BreakerStateName;
  openedAt: number | null;
  retryAt: number | null;
}

export const CLOSED_BREAKER: BreakerSnapshot = { state: "closed", openedAt: null, retryAt: null };

const num = (value: string | undefined) => (value ? Number(value) : null);

/** Records a channel's wait for every worker and the gateway; a later, longer wait wins. */
export async function setChannelWait(
  redis: RedisClient,
  prefix: string,
  destinationId: string,
  wait: ChannelWait,
): Promise<void> {
  const keys = publishKeys(prefix);
  const ttl = Math.max(1, wait.until - Date.now());
  const current = await readChannelWaits(redis, prefix, [destinationId]);
  if ((current.get(destinationId)?.until ?? 0) >= wait.until) return;
  await redis
    .multi()
    .hset(keys.wait(destinationId), {
      until: String(wait.until),
      channel: wait.channel,
      reason: wait.reason,
    })
    .pexpire(keys.wait(destinationId), ttl)
    .zadd(keys.ready, wait.until, destinationId)
    .exec();
}

/** One hash per destination, read in one round trip (an empty object where there is none). */
async function readHashes(
  redis: RedisClient,
  destinationIds: string[],
  keyOf: (id: string) => string,
): Promise<Record<string, string>[]> {
  if (destinationIds.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of destinationIds) pipeline.hgetall(keyOf(id));
  const results = (await pipeline.exec()) ?? [];
  return destinationIds.map(
    (_, i) => (results[i]?.[1] as Record<string, string> | undefined) ?? {},
  );
}

/** Waits still running, by destination. */
export async function readChannelWaits(
  redis: RedisClient,
  prefix: string,
  destinationIds: string[],
): Promise<Map<string, ChannelWait>> {
  const hashes = await readHashes(redis, destinationIds, publishKeys(prefix).wait);
  const out = new Map<string, ChannelWait>();
  const now = Date.now();
  destinationIds.forEach((id, i) => {
    const hash = hashes[i]!;
    const until = num(hash.until);
    if (until && until > now)
      out.set(id, { until, channel: hash.channel ?? "", reason: hash.reason ?? "" });
  });
  return out;
}

export async function writeBreaker(
  redis: RedisClient,
  prefix: string,
  destinationId: string,
  snapshot: BreakerSnapshot,
): Promise<void> {
  const key = publishKeys(prefix).breaker(destinationId);
  if (snapshot.state === "closed") {
    await redis.del(key);
    return;
  }
  await redis
    .multi()
    .hset(key, {
      state: snapshot.state,
      openedAt: String(snapshot.openedAt ?? ""),
      retryAt: String(snapshot.retryAt ?? ""),
    })
    .pexpire(key, 24 * 3600 * 1000)
    .exec();
}

/** Breakers as the workers last mirrored them; a destination with no record is closed. */
export async function readBreakers(
  redis: RedisClient,
  prefix: string,
  destinationIds: string[],
): Promise<Map<string, BreakerSnapshot>> {
  const hashes = await readHashes(redis, destinationIds, publishKeys(prefix).breaker);
  const out = new Map<string, BreakerSnapshot>();
  destinationIds.forEach((id, i) => {
    const hash = hashes[i]!;
    const state = hash.state;
    out.set(
      id,
      state === "open" || state === "halfOpen"
        ? { state, openedAt: num(hash.openedAt), retryAt: num(hash.retryAt) }
        : CLOSED_BREAKER,
    );
  });
  return out;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** Job counts of each destination's queue, in one round trip. */
export async function readQueueCounts(
  redis: RedisClient,
  prefix: string,
  destinationIds: string[],
): Promise<Map<string, QueueCounts>> {
  const keys = publishKeys(prefix);
  const pipeline = redis.pipeline();
  for (const id of destinationIds) {
    const q = keys.bullQueue(id);
    pipeline
      .llen(`${q}:wait`)
      .zcard(`${q}:prioritized`)
      .llen(`${q}:active`)
      .zcard(`${q}:delayed`)
      .zcard(`${q}:failed`);
  }
  const results = (await pipeline.exec()) ?? [];
  const n = (i: number) => Number(results[i]?.[1] ?? 0);
  return new Map(
    destinationIds.map((id, d) => {
      const o = d * 5;
      return [
        id,
        { waiting: n(o) + n(o + 1), active: n(o + 2), delayed: n(o + 3), failed: n(o + 4) },
      ];
    }),
  );
}
