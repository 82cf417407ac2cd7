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

/**
 * Channel calls per second per destination, counted in Redis so the limit holds across every
 * worker process. A fixed one-second window: simple, and a burst at a window's edge is at most
 * twice the limit, which channels' own limiters tolerate. A destination whose channel declares a
 * limit (ChannelDefinition.rateLimit, per destination account) is held to that one instead of
 * the worker's setting. It counts jobs taken, not the requests each makes.
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
    const second = Math.floor(this.now() / 1000);
    const key = publishKeys(this.prefix).rate(destinationId, second);
    const [[, count]] = (await this.redis.multi().incr(key).pexpire(key, 2_000).exec()) as [
      [unknown, number],
      unknown,
    ];
    return count <= perSecond ? null : (second + 1) * 1000;
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
