import { randomUUID } from "node:crypto";
import { RedisLock, type PublishKeys, type RedisClient } from "@catalog/queue";

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

// Takes the first free concurrency slot of the longest-waiting due destination and moves that
// destination to the back of the line, in one round trip. Idle lanes poll this all the time: done
// as one SET NX per slot of every due destination, it was most of the workers' Redis traffic (and
// of their CPU) whenever lanes outnumber the destinations with work. KEYS[1] ready set; ARGV: now,
// due destinations to look at, concurrency, lease ms, token, lease key prefix (followed by
// "<destination id>:<slot>"). Returns { destinationId, leaseKey } or nil.
const ACQUIRE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(due) do
  for slot = 0, tonumber(ARGV[3]) - 1 do
    local key = ARGV[6] .. id .. ':' .. slot
    if redis.call('SET', key, ARGV[5], 'PX', ARGV[4], 'NX') then
      redis.call('ZADD', KEYS[1], 'XX', ARGV[1], id)
      return { id, key }
    end
  end
end
return nil`;

/**
 * Chooses which destination a lane serves next. Destinations with work sit in one sorted set,
 * scored by when they are next due; a lane takes the longest-waiting due destination whose
 * concurrency slots (shared by every process through Redis leases) are not all taken, and
 * moves it to the back of the line, so a destination with 20,000 jobs gets one turn at a time
 * like the others.
 */
export class DestinationPicker {
  private readonly leasePrefix: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: PublishKeys,
    private readonly options: { concurrency: number; leaseMs: number; recheckActiveMs: number },
  ) {
    // The script builds lease keys itself: they must be exactly the ones keys.lease() names.
    this.leasePrefix = keys.lease("", 0).slice(0, -":0".length);
    if (keys.lease("d", 7) !== `${this.leasePrefix}d:7`)
      throw new Error("lease keys are not <prefix><destination id>:<slot>");
  }

  async acquire(): Promise<Lease | null> {
    const token = randomUUID();
    const taken = (await this.redis.eval(
      ACQUIRE,
      1,
      this.keys.ready,
      Date.now(),
      32,
      this.options.concurrency,
      this.options.leaseMs,
      token,
      this.leasePrefix,
    )) as [string, string] | null;
    if (!taken) return null;
    const [destinationId, key] = taken;
    return { destinationId, lock: RedisLock.held(this.redis, key, token, this.options.leaseMs) };
  }

  /** The destination had no job to give: put it where it belongs in line (or out of it). */
  async settle(destinationId: string): Promise<void> {
    const q = this.keys.bullQueue(destinationId);
    await this.redis.eval(
      SETTLE,
      6,
      this.keys.ready,
      `${q}:wait`,
      `${q}:prioritized`,
      `${q}:paused`,
      `${q}:active`,
      `${q}:delayed`,
      destinationId,
      Date.now(),
      this.options.recheckActiveMs,
    );
  }

  /**
   * Nothing to do for this destination before `until` (a channel wait, an open breaker, a rate
   * limit).
   */
  async postpone(destinationId: string, until: number): Promise<void> {
    await this.redis.zadd(this.keys.ready, "XX", "GT", until, destinationId);
  }
}
