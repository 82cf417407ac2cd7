import { publishKeys, type RedisClient } from "@catalog/queue";

/**
 * Channel calls per second per destination, counted in Redis so the limit holds across every
 * worker process. A fixed one-second window: simple, and a burst at a window's edge is at most
 * twice the limit, which channels' own limiters tolerate.
 */
export class RateGate {
  constructor(private readonly redis: RedisClient, private readonly prefix: string, private readonly perSecond: number) {}

  /** Null when the call may go now; otherwise when the destination's next window opens. */
  async take(destinationId: string): Promise<number | null> {
    if (this.perSecond <= 0) return null;
    const second = Math.floor(Date.now() / 1000);
    const key = publishKeys(this.prefix).rate(destinationId, second);
    const [[, count]] = (await this.redis.multi().incr(key).pexpire(key, 2_000).exec()) as [[unknown, number], unknown];
    return count <= this.perSecond ? null : (second + 1) * 1000;
  }
}
