import type { Redis } from "ioredis";
import type { PublishKeys } from "@catalog/queue";
import { RedisLock } from "./redis-lock.js";

export interface Lease {
  destinationId: string;
  lock: RedisLock;
}

// After a lane found no job to take: keeps the destination in line, due when its next delayed
// job is, or takes it out when its queue is empty. Atomic, so a job added meanwhile is never
// left without its destination in line (the producer adds jobs before it marks the destination).
const SETTLE = `
local pending = redis.call('LLEN', KEYS[2]) + redis.call('ZCARD', KEYS[3]) + redis.call('LLEN', KEYS[4])
if pending > 0 then redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1]) return 1 end
local at = nil
local nextDelayed = redis.call('ZRANGE', KEYS[6], 0, 0, 'WITHSCORES')
if nextDelayed[2] then at = math.floor(tonumber(nextDelayed[2]) / 4096) end
if redis.call('LLEN', KEYS[5]) > 0 then
  local recheck = tonumber(ARGV[2]) + tonumber(ARGV[3])
  if at == nil or recheck < at then at = recheck end
end
if at == nil then redis.call('ZREM', KEYS[1], ARGV[1]) return 0 end
redis.call('ZADD', KEYS[1], 'XX', at, ARGV[1])
return 2`;

/**
 * Chooses which destination a lane serves next. Destinations with work sit in one sorted set,
 * scored by when they are next due; a lane takes the longest-waiting due destination whose
 * concurrency slots (shared by every process through Redis leases) are not all taken, and
 * moves it to the back of the line, so a destination with 20,000 jobs gets one turn at a time
 * like the others.
 */
export class DestinationPicker {
  constructor(
    private readonly redis: Redis,
    private readonly keys: PublishKeys,
    private readonly options: { concurrency: number; leaseMs: number; recheckActiveMs: number },
  ) {}

  async acquire(): Promise<Lease | null> {
    const due = await this.redis.zrangebyscore(this.keys.ready, "-inf", Date.now(), "LIMIT", 0, 32);
    for (const destinationId of due) {
      for (let slot = 0; slot < this.options.concurrency; slot++) {
        const lock = await RedisLock.acquire(this.redis, this.keys.lease(destinationId, slot), this.options.leaseMs);
        if (lock) {
          await this.redis.zadd(this.keys.ready, "XX", Date.now(), destinationId);
          return { destinationId, lock };
        }
      }
    }
    return null;
  }

  /** The destination had no job to give: put it where it belongs in line (or out of it). */
  async settle(destinationId: string): Promise<void> {
    const q = this.keys.bullQueue(destinationId);
    await this.redis.eval(SETTLE, 6, this.keys.ready, `${q}:wait`, `${q}:prioritized`, `${q}:paused`, `${q}:active`, `${q}:delayed`,
      destinationId, Date.now(), this.options.recheckActiveMs);
  }

  /** Nothing to do for this destination before `until` (a channel wait, an open breaker, a rate limit). */
  async postpone(destinationId: string, until: number): Promise<void> {
    await this.redis.zadd(this.keys.ready, "XX", "GT", until, destinationId);
  }
}
