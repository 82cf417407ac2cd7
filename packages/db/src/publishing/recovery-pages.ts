import type { Db } from "../client.js";
import { PENDING_SYNC_LOGS, type DeadPublish, type PendingPublish } from "./sync-logs.js";

// What the publish workers' recovery reads from PostgreSQL, a page at a time: the publishes still
// to do and the dead ones whose dead-letter job Redis may lack. After a Redis loss, all of them;
// on the pass every interval, only those whose lease ran out.

/**
 * The planner may only walk an index in order for the rest of the transaction: no bitmap scan
 * that collects every matching row, no sort of them.
 */
export const WALK_INDEX_IN_ORDER =
  "SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)";

/** A dead publish: the predicate of `sync_logs_dead_id_idx` and `sync_logs_dead_lease_idx`. */
const DEAD_SYNC_LOGS = "status = 'dead'";

/** Where a page ended: the next page starts after it. */
export interface PageCursor {
  id: string;
  leaseUntil: Date | null;
}

export interface RecoveryPage<T> {
  rows: T[];
  /** The page's last row, to ask for the next page with. */
  last: PageCursor | undefined;
}

export interface RecoveryPageOptions {
  /** Only those whose lease ran out before this; without it, all of them. */
  expiredBefore?: Date;
  limit: number;
  after?: PageCursor;
}

/**
 * The statement of one page of pending or dead publishes, with its parameters (exported for the
 * test that reads its plans). All of them come in id order, walking `sync_logs_<which>_id_idx`;
 * those whose lease ran out come in lease order, walking `sync_logs_<which>_lease_idx` over the
 * expired ones only (a page's thousand leases can be one timestamp: the recovery gives a page one
 * lease, hence the keyset on `(lease_until, id)`).
 */
export function recoveryPageQuery(
  which: "pending" | "dead",
  options: RecoveryPageOptions,
): { sql: string; params: unknown[] } {
  const { expiredBefore, after } = options;
  const params: unknown[] = [options.limit];
  const where = [which === "pending" ? PENDING_SYNC_LOGS : DEAD_SYNC_LOGS];
  if (expiredBefore) {
    where.push(`lease_until < $${params.push(expiredBefore)}`);
    if (after)
      where.push(
        `(lease_until, id) > ($${params.push(after.leaseUntil)}::timestamp, $${params.push(after.id)}::uuid)`,
      );
  } else if (after) {
    where.push(`id > $${params.push(after.id)}::uuid`);
  }
  // A dead publish's error goes into its dead-letter job; a pending one's is not needed.
  const sql = `SELECT id AS "syncLogId", org_id AS "orgId", product_id AS "productId",
      destination_account_id AS "destinationAccountId", lease_until AS "leaseUntil"${which === "dead" ? ", error" : ""}
    FROM sync_logs WHERE ${where.join(" AND ")}
    ORDER BY ${expiredBefore ? "lease_until, id" : "id"} LIMIT $1`;
  return { sql, params };
}

type Row = PendingPublish & { leaseUntil: Date | null; error?: string | null };

/**
 * One page, its index walked from `after` until `limit` rows, whatever the statistics say. Taken
 * before a backlog built up (autoanalyze waits for a tenth of the table to change), they promise
 * few such rows, and the planner then collected every pending (or dead) row for each page and
 * sorted them: 140 ms a page with 300,000 pending, a pass that grew with the square of the
 * backlog; or, for the expired ones, read every row of a healthy backlog to find none.
 */
async function recoveryPage(db: Db, which: "pending" | "dead", options: RecoveryPageOptions) {
  const { sql, params } = recoveryPageQuery(which, options);
  const rows = await db.$transaction(async (tx) => {
    await tx.$queryRawUnsafe(WALK_INDEX_IN_ORDER);
    return tx.$queryRawUnsafe<Row[]>(sql, ...params);
  });
  const last = rows.at(-1);
  return { rows, last: last && { id: last.syncLogId, leaseUntil: last.leaseUntil } };
}

/**
 * Publishes PostgreSQL says are still to do (`queued` or `running`; disconnecting a destination
 * ends its pending ones as `failed`, so these are all on connected destinations).
 */
export async function pendingPublishes(
  db: Db,
  options: RecoveryPageOptions,
): Promise<RecoveryPage<PendingPublish>> {
  const { rows, last } = await recoveryPage(db, "pending", options);
  return { rows: rows.map(({ leaseUntil: _lease, error: _error, ...publish }) => publish), last };
}

/**
 * Dead publishes whose dead-letter job may be missing from Redis: with `expiredBefore`, those
 * whose mirror lease ran out (the worker could not confirm the job); without, every dead publish
 * (Redis lost its data). Dead publishes stay until an operator replays or discards them.
 */
export async function deadLettersOwed(
  db: Db,
  options: RecoveryPageOptions,
): Promise<RecoveryPage<DeadPublish>> {
  const { rows, last } = await recoveryPage(db, "dead", options);
  return {
    rows: rows.map(({ leaseUntil: _lease, error, ...publish }) => ({
      ...publish,
      error: error ?? "",
    })),
    last,
  };
}
