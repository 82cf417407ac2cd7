import CircuitBreaker from "opossum";
import { isChannelError } from "@catalog/channels";
import { publishKeys, readBreakers, writeBreaker, type RedisClient } from "@catalog/queue";

export interface BreakerOptions {
  errorThresholdPercentage: number;
  volumeThreshold: number;
  rollingCountTimeout: number;
  resetTimeout: number;
  /** How long a half-open probe may take before another process may probe. */
  probeTtlMs: number;
}

/** Whether a call may go to the channel now, and if it is the half-open probe. */
export type BreakerGate =
  { pass: true; probe: boolean } | { pass: false; until: number; reason: string };

/** Only failures that say the channel is unwell count: give-ups and waits do not. */
const ignored = (error: unknown) => isChannelError(error) && error.outcome !== "retry";

/**
 * One opossum breaker per destination in this process, measuring the error rate of its calls,
 * with the state every process must honour mirrored in Redis: a breaker that opens here pauses
 * the destination for every worker, and after its reset time exactly one process sends the
 * half-open probe whose outcome closes or reopens it everywhere.
 */
export class BreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();
  /**
   * Set while this registry moves a local breaker to match Redis, so that move is not mirrored
   * back.
   */
  private syncing = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly options: BreakerOptions,
    private readonly onOpen: (destinationId: string) => void,
  ) {}

  /** This process's breakers by state, for metrics. */
  states(): Record<"closed" | "open" | "halfOpen", number> {
    const states = { closed: 0, open: 0, halfOpen: 0 };
    for (const breaker of this.breakers.values()) {
      if (breaker.halfOpen) states.halfOpen++;
      else if (breaker.opened) states.open++;
      else states.closed++;
    }
    return states;
  }

  private breaker(destinationId: string): CircuitBreaker {
    let breaker = this.breakers.get(destinationId);
    if (breaker) return breaker;
    breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      timeout: false, // the adapter bounds its own calls
      errorThresholdPercentage: this.options.errorThresholdPercentage,
      volumeThreshold: this.options.volumeThreshold,
      rollingCountTimeout: this.options.rollingCountTimeout,
      resetTimeout: this.options.resetTimeout,
      errorFilter: ignored,
    });
    breaker.on("open", () => {
      if (this.syncing) return;
      const now = Date.now();
      void writeBreaker(this.redis, this.prefix, destinationId, {
        state: "open",
        openedAt: now,
        retryAt: now + this.options.resetTimeout,
      }).catch(() => {});
      this.onOpen(destinationId);
    });
    this.breakers.set(destinationId, breaker);
    return breaker;
  }

  private quietly(move: () => void) {
    this.syncing = true;
    try {
      move();
    } finally {
      this.syncing = false;
    }
  }

  async gate(destinationId: string): Promise<BreakerGate> {
    const shared = (await readBreakers(this.redis, this.prefix, [destinationId])).get(
      destinationId,
    )!;
    const local = this.breaker(destinationId);
    const now = Date.now();
    if (shared.state === "closed") {
      if (!local.closed) this.quietly(() => local.close());
      return { pass: true, probe: false };
    }
    if (shared.state === "open" && (shared.retryAt ?? 0) > now) {
      if (local.closed) this.quietly(() => local.open());
      return {
        pass: false,
        until: shared.retryAt!,
        reason: `the breaker of this destination is open until ${new Date(shared.retryAt!).toISOString()}`,
      };
    }
    const probeKey = publishKeys(this.prefix).probe(destinationId);
    const won = await this.redis.set(probeKey, "1", "PX", this.options.probeTtlMs, "NX");
    if (won !== "OK")
      return {
        pass: false,
        until: now + 1_000,
        reason: "the breaker of this destination is half-open and another worker is probing",
      };
    await writeBreaker(this.redis, this.prefix, destinationId, {
      state: "halfOpen",
      openedAt: shared.openedAt,
      retryAt: shared.retryAt,
    });
    return { pass: true, probe: true };
  }

  /**
   * Calls `fn` through the destination's breaker; a probe's outcome closes or reopens it for
   * everyone.
   */
  async fire<T>(destinationId: string, probe: boolean, fn: () => Promise<T>): Promise<T> {
    const local = this.breaker(destinationId);
    if (probe && !local.closed) this.quietly(() => local.close());
    try {
      const result = (await local.fire(fn)) as T;
      if (probe) await this.settleProbe(destinationId, "closed");
      return result;
    } catch (error) {
      if (probe) {
        if (ignored(error)) await this.settleProbe(destinationId, "closed");
        else {
          this.quietly(() => local.open());
          await this.settleProbe(destinationId, "open");
        }
      }
      throw error;
    }
  }

  private async settleProbe(destinationId: string, state: "closed" | "open") {
    const now = Date.now();
    await writeBreaker(
      this.redis,
      this.prefix,
      destinationId,
      state === "closed"
        ? { state, openedAt: null, retryAt: null }
        : { state, openedAt: now, retryAt: now + this.options.resetTimeout },
    );
    await this.redis.del(publishKeys(this.prefix).probe(destinationId));
  }

  /** True when opossum refused the call because this process's breaker is open. */
  static isOpenRejection(error: unknown): boolean {
    return (error as { code?: string } | null)?.code === "EOPENBREAKER";
  }

  shutdown() {
    for (const breaker of this.breakers.values()) breaker.shutdown();
    this.breakers.clear();
  }
}
