import type { Product } from "../generated/client.js";
import type { WatchSchedule } from "../generated/enums.js";

/** A watched product's re-checks, as the API shows them (null: not watched). */
export interface WatchView {
  schedule: WatchSchedule;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  lastChangedAt: string | null;
  /** What the last re-check found ("price 19.99 EUR -> 17.99 EUR", "page gone (404)", ...). */
  lastResult: string | null;
}

type WatchColumns = Pick<
  Product,
  | "watchSchedule"
  | "watchLastCheckedAt"
  | "watchNextCheckAt"
  | "watchLastChangedAt"
  | "watchLastResult"
>;

export function watchViewOf(row: WatchColumns): WatchView | null {
  if (!row.watchSchedule) return null;
  return {
    schedule: row.watchSchedule,
    lastCheckedAt: row.watchLastCheckedAt?.toISOString() ?? null,
    nextCheckAt: row.watchNextCheckAt?.toISOString() ?? null,
    lastChangedAt: row.watchLastChangedAt?.toISOString() ?? null,
    lastResult: row.watchLastResult,
  };
}
