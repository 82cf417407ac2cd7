import { randomUUID } from "node:crypto";
import type { ChannelRateLimit } from "@catalog/channels";
import { publishKeys, type RedisClient } from "@catalog/queue";

export interface RateGateOptions {
  /**
   * DESTINATION_RATE_PER_SECOND: the limit of destinations whose channel declares none (0: none).
   */
  perSecond: number;
  /** Each channel's declared limit (ChannelDefinition.rateLimit), by channel name. */
  channelLimits?: ReadonlyMap<string, ChannelRateLimit>;
  /** The channel a destination belongs to; null when it is not known (its default applies). */
  channelOf?: (destinationId: string) => Promise<string | null>;
  /** The clock (tests give a fake one). */
  now?: () => number;
}

/**
 * How many jobs one window of the gate allows for a channel's declared limit (see
 * ChannelRateLimit).
 */
export const windowLimit = (limit: ChannelRateLimit) =>
  Math.max(1, Math.min(limit.perSecond, Math.floor(limit.burst / 2)));

const WINDOW_MS = 1_000;

/**
 * One take of the sliding window: drops the takes older than the window, then either records this
 * one (-1) or answers when the oldest leaves the window. KEYS[1] the destination's window;
 * ARGV now (ms), limit, window (ms), a member unique to this take.
 */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return -1
end
return tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]) + tonumber(ARGV[3])`;

/**
 * Channel calls per second per destination, counted in Redis so the limit holds across every
 * worker process. A sliding window (the takes of the last second), as channels count: a fixed
 * window would let twice the limit through across a window's edge, and each 429 that earns
 * costs the destination at least a second's pause (Retry-After has whole seconds). A destination
 * whose channel declares a limit (ChannelDefinition.rateLimit, per destination account) is held
 * to that one instead of the worker's setting. It counts jobs taken, not the requests each makes.
 */
export class RateGate {
  private readonly perSecond: number;
  private readonly channelLimits: ReadonlyMap<string, number>;
  private readonly channelOf: (destinationId: string) => Promise<string | null>;
  private readonly now: () => number;
  /** A destination's channel never changes, so it is looked up once per process. */
  private readonly channels = new Map<string, string>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    options: RateGateOptions,
  ) {
    this.perSecond = options.perSecond;
    this.channelLimits = new Map(
      [...(options.channelLimits ?? new Map<string, ChannelRateLimit>())].map(([name, limit]) => [
        name,
        windowLimit(limit),
      ]),
    );
    this.channelOf = options.channelOf ?? (async () => null);
    this.now = options.now ?? Date.now;
  }

  /** Null when the call may go now; otherwise when the destination's next window opens. */
  async take(destinationId: string): Promise<number | null> {
    const perSecond = await this.limitOf(destinationId);
    if (perSecond <= 0) return null;
    const now = this.now();
    const until = (await this.redis.eval(
      TAKE,
      1,
      publishKeys(this.prefix).rate(destinationId),
      now,
      perSecond,
      WINDOW_MS,
      `${now}:${randomUUID()}`,
    )) as number;
    return until < 0 ? null : until;
  }

  /** True when the destination's jobs are counted (a lane then takes them one at a time). */
  async limits(destinationId: string): Promise<boolean> {
    return (await this.limitOf(destinationId)) > 0;
  }

  /**
   * The jobs a destination may take in one window: its channel's declared limit, else the setting.
   */
  private async limitOf(destinationId: string): Promise<number> {
    if (this.channelLimits.size === 0) return this.perSecond;
    let channel = this.channels.get(destinationId);
    if (channel === undefined) {
      const found = await this.channelOf(destinationId);
      if (found === null) return this.perSecond;
      this.channels.set(destinationId, (channel = found));
    }
    return this.channelLimits.get(channel) ?? this.perSecond;
  }
}
