// What a failed publish needs before it can succeed (sync_logs.failure): the product's data, the
// store's settings, the store's access, or only time. The publish worker records it with the
// field at fault; the API shows it beside the raw error, and a run retries only what can change.
import type { SyncFailure, SyncStatus } from "../generated/enums.js";

export interface FailureRecord {
  kind: SyncFailure;
  /** The product field or store setting at fault, as the API names it ("price", "settings"). */
  field: string | null;
  /** The channel's own words about that field ("price is required"), without ids. */
  reason: string | null;
}

export interface FailureRow {
  status: SyncStatus;
  failure: SyncFailure | null;
  failure_field: string | null;
  failure_reason: string | null;
}

/**
 * The failure of a failed or dead sync log; one recorded before failures were classified is read
 * from its status (dead: it ran out of attempts on outages) or left unknown (null).
 */
export function failureOf(row: FailureRow): FailureRecord | null {
  if (row.status !== "failed" && row.status !== "dead") return null;
  if (row.failure)
    return { kind: row.failure, field: row.failure_field, reason: row.failure_reason };
  return row.status === "dead" ? { kind: "temporary", field: null, reason: null } : null;
}

/**
 * SQL: whether retrying the failed cell `c` (a sync log, with its product `p` and destination `d`
 * joined) can change its outcome: an outage can pass; a product, settings or access failure only
 * once the product, or the store's settings or access, changed after it. One recorded before
 * failures were classified is retried as before.
 */
export const RETRY_CAN_CHANGE = `coalesce(CASE
  WHEN c.failure IS NULL OR c.failure = 'temporary' THEN true
  WHEN c.failure = 'product' THEN p.updated_at > c.finished_at
  ELSE d.fixed_at > c.finished_at
END, false)`;
