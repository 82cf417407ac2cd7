// A declared request rate per store (`--rate 20`, `rate` in the options or PUT /_control/rate):
// at most that many API requests in any one second; one over it is answered as the channel
// throttles (429 with Retry-After), before any fault or route runs, and is not counted against
// the rate. Absent or null: no limit.
import type { StandinFault } from "./channel-standin.js";

const WINDOW_MS = 1_000;

export class RateGate {
  private perSecond: number | null;
  private readonly accepted = new Map<string, number[]>();

  constructor(
    perSecond?: number | null,
    private readonly clock: () => number = Date.now,
  ) {
    this.perSecond = perSecond ?? null;
  }

  get rate(): number | null {
    return this.perSecond;
  }

  set(perSecond: number | null): void {
    this.perSecond = perSecond;
    this.accepted.clear();
  }

  /** The throttle this request of the store must play when it is over the rate, else null. */
  take(storeId: string, now = this.clock()): Extract<StandinFault, { kind: "throttle" }> | null {
    if (this.perSecond === null) return null;
    const recent = (this.accepted.get(storeId) ?? []).filter((at) => at > now - WINDOW_MS);
    this.accepted.set(storeId, recent);
    if (recent.length >= this.perSecond) {
      const waitMs = recent[0]! + WINDOW_MS - now;
      return { kind: "throttle", retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1_000)) };
    }
    recent.push(now);
    return null;
  }
}

/** A declared rate as the control API and the command lines take it, or what is wrong with it. */
export function parseRate(value: unknown): number | null | string {
  if (value === null) return null;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  return "perSecond must be a positive integer or null";
}

/** Counts one request of a route ("POST /bulk_update_price_quantity", "productSet"). */
export function countRoute(counts: { routes: Record<string, number> }, route: string): void {
  counts.routes[route] = (counts.routes[route] ?? 0) + 1;
}
