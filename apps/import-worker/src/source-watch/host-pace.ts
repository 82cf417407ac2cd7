import type { RedisClient } from "@catalog/queue";

/**
 * A polite pace per host, across every import worker: at most one re-check of a host's pages at a
 * time, and at least `gapMs` between the end of one and the start of the next. The claim is a
 * Redis key per host holding the check's token; it lives `leaseMs` (the fetch's longest time) while
 * held, so a worker that dies frees the host, and `gapMs` after it is let go.
 */
export interface HostPace {
  gapMs: number;
  leaseMs: number;
}

// Claimed: 0. Held by another: how long it is still held, at least 1 ms.
const CLAIM = `
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 0 end
local left = redis.call("PTTL", KEYS[1])
if left < 1 then return 1 end
return left`;

// Let go by its holder only: the key then lives the gap.
const RELEASE = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
end
return 0`;

/** How soon a check that found its host busy asks again, at the least. */
const MIN_RETRY_MS = 100;

export const hostKey = (prefix: string, host: string) => `${prefix}:watch-host:${host}`;

export class HostGate {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    readonly pace: HostPace,
  ) {}

  /**
   * 0 when the host is now this token's; else how long to wait before asking again: the rest of
   * the gap, or, while another check holds the host (its lease may be long), a gap at most.
   */
  async claim(host: string, token: string): Promise<number> {
    const left = await this.redis.eval(
      CLAIM,
      1,
      hostKey(this.prefix, host),
      token,
      String(this.pace.leaseMs),
    );
    const ms = Number(left);
    return ms === 0 ? 0 : Math.min(ms, Math.max(this.pace.gapMs, MIN_RETRY_MS));
  }

  async release(host: string, token: string): Promise<void> {
    await this.redis.eval(
      RELEASE,
      1,
      hostKey(this.prefix, host),
      token,
      String(Math.max(1, this.pace.gapMs)),
    );
  }
}
