import type { Db } from "../client.js";
import { cappedCount } from "../capped-count.js";
import { lockInIdOrder } from "../row-locks.js";
import type { Prisma, SyncLog } from "../generated/client.js";
import type { SyncKind, SyncStatus } from "../generated/enums.js";
import type { Page } from "../products.js";
import { failureOf, type FailureRecord } from "./sync-failure.js";

export interface SyncLogView {
  id: string;
  jobId: string;
  productId: string;
  destinationAccountId: string;
  status: SyncStatus;
  attempts: number;
  error: string | null;
  /** What the failure needs (null unless failed or dead, or recorded before it was classified). */
  failure: FailureRecord | null;
  remoteId: string | null;
  remoteUrl: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  kind: SyncKind;
  trigger: string | null;
  note: string | null;
  /** The publish run it belongs to; null for automatic updates and ends. */
  runId: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toSyncLogView = (s: SyncLog): SyncLogView => ({
  id: s.id,
  jobId: s.jobId,
  productId: s.productId,
  destinationAccountId: s.destinationAccountId,
  status: s.status,
  attempts: s.attempts,
  error: s.error,
  failure: failureOf({
    status: s.status,
    failure: s.failure,
    failure_field: s.failureField,
    failure_reason: s.failureReason,
  }),
  remoteId: s.remoteId,
  remoteUrl: s.remoteUrl,
  createdAt: s.createdAt.toISOString(),
  startedAt: iso(s.startedAt),
  finishedAt: iso(s.finishedAt),
  kind: s.kind,
  trigger: s.trigger,
  note: s.note,
  runId: s.runId,
});

export interface SyncLogQuery {
  productId?: string;
  destinationAccountId?: string;
  /** One state, or several (any of them). */
  status?: SyncStatus | SyncStatus[];
  kind?: SyncKind;
  page: number;
  pageSize: number;
}

/**
 * The list counts at most this many sync logs past the start of the page asked for: a count of
 * every row of a busy store or org (100,000s to 10,000,000s) would cost more than the page itself
 * (80 ms to seconds at 10M rows against 4 ms), while nobody pages through more. Past it the total
 * is a lower bound (`totalExact: false`) that still reaches the next pages.
 */
export const SYNC_LOG_COUNT_LIMIT = 10_000;

/**
 * The org's sync logs, newest first. The page reads the (org, product | store, created_at, id)
 * indexes in order; the total is exact up to SYNC_LOG_COUNT_LIMIT rows past the page's start.
 */
export async function listSyncLogs(
  db: Db,
  orgId: string,
  query: SyncLogQuery,
): Promise<Page<SyncLogView> & { totalExact: boolean }> {
  const statuses = query.status === undefined ? [] : [query.status].flat();
  const where: Prisma.SyncLogWhereInput = {
    orgId,
    ...(query.productId ? { productId: query.productId } : {}),
    ...(query.destinationAccountId ? { destinationAccountId: query.destinationAccountId } : {}),
    ...(statuses.length > 0 ? { status: { in: statuses } } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
  };
  const params: unknown[] = [orgId];
  const conditions = ["org_id = $1::uuid"];
  const add = (column: string, cast: string, value: unknown) => {
    params.push(value);
    conditions.push(`${column} = $${params.length}::${cast}`);
  };
  if (query.productId) add("product_id", "uuid", query.productId);
  if (query.destinationAccountId) add("destination_account_id", "uuid", query.destinationAccountId);
  if (statuses.length > 0) {
    params.push(statuses);
    conditions.push(`status = ANY($${params.length}::"SyncStatus"[])`);
  }
  if (query.kind) add("kind", '"SyncKind"', query.kind);
  const offset = (query.page - 1) * query.pageSize;
  const [rows, counted] = await Promise.all([
    db.syncLog.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: offset,
      take: query.pageSize,
    }),
    cappedCount(
      db,
      "sync_logs",
      { sql: conditions.join(" AND "), params },
      offset,
      SYNC_LOG_COUNT_LIMIT,
    ),
  ]);
  return { items: rows.map(toSyncLogView), total: counted.total, totalExact: counted.exact };
}

/**
 * Number of dead publishes (the dead-letter queue as PostgreSQL records it), optionally for one
 * destination.
 */
export const countDead = (db: Db, destinationAccountId?: string): Promise<number> =>
  db.syncLog.count({
    where: { status: "dead", ...(destinationAccountId ? { destinationAccountId } : {}) },
  });

export interface PendingPublish {
  syncLogId: string;
  orgId: string;
  productId: string;
  destinationAccountId: string;
}

const pendingSelect = {
  id: true,
  orgId: true,
  productId: true,
  destinationAccountId: true,
} as const;
const toPending = (r: {
  id: string;
  orgId: string;
  productId: string;
  destinationAccountId: string;
}): PendingPublish => ({
  syncLogId: r.id,
  orgId: r.orgId,
  productId: r.productId,
  destinationAccountId: r.destinationAccountId,
});

/**
 * A publish still to do: `queued` or `running`. It is the predicate of the partial indexes
 * `sync_logs_pending_id_idx` and `sync_logs_pending_lease_idx` (prisma/schema.prisma), so a query
 * written with it can walk them (`recovery-pages.ts`); change them together.
 */
export const PENDING_SYNC_LOGS = "status IN ('queued', 'running')";

/**
 * The publish a job id names (job id = sync log id) while it is still to do, for a job whose
 * payload Redis lost: PostgreSQL holds everything the job carried. Null when it is finished or
 * unknown.
 */
export async function pendingPublish(db: Db, syncLogId: string): Promise<PendingPublish | null> {
  const row = await db.syncLog.findFirst({
    where: { id: syncLogId, status: { in: ["queued", "running"] } },
    select: pendingSelect,
  });
  return row ? toPending(row) : null;
}

/**
 * Pushes the lease of the publishes still to do forward (recovery, after enqueueing them again).
 * A row a worker holds locked is skipped, never waited for: the worker is starting it (and sets
 * its own lease) or recording its outcome (and ends the lease). Waiting would make this
 * statement, a thousand rows at a time, meet a worker's batch statement that locks the same rows
 * in another order: a deadlock, which failed a recovery pass of 1,000,000 publishes.
 */
export async function extendLeases(db: Db, syncLogIds: string[], leaseMs: number): Promise<void> {
  if (syncLogIds.length === 0) return;
  const pending = lockInIdOrder("sync_logs", `id = ANY($1::uuid[]) AND ${PENDING_SYNC_LOGS}`, {
    skipLocked: true,
  });
  await db.$executeRawUnsafe(
    `UPDATE sync_logs SET lease_until = $2 WHERE id IN (${pending})`,
    syncLogIds,
    new Date(Date.now() + leaseMs),
  );
}

/**
 * Moves dead publishes back to `queued` with their attempts reset (replay), optionally for one
 * destination; only those of connected destinations.
 */
export async function requeueDead(
  db: Db,
  leaseMs: number,
  destinationAccountId?: string,
): Promise<PendingPublish[]> {
  return db.$transaction(async (tx) => {
    const connected = await tx.destinationAccount.findMany({
      where: {
        disconnectedAt: null,
        ...(destinationAccountId ? { id: destinationAccountId } : {}),
      },
      select: { id: true },
    });
    const rows = await tx.syncLog.findMany({
      where: { status: "dead", destinationAccountId: { in: connected.map((d) => d.id) } },
      select: pendingSelect,
    });
    const ids = rows.map((r) => r.id);
    await tx.syncLog.updateMany({
      where: { id: { in: ids } },
      data: {
        status: "queued",
        attempts: 0,
        error: null,
        finishedAt: null,
        leaseUntil: new Date(Date.now() + leaseMs),
      },
    });
    await tx.$executeRawUnsafe(
      `UPDATE listings l SET status = 'queued', updated_at = now() FROM sync_logs s
       WHERE s.id = ANY($1::uuid[]) AND l.product_id = s.product_id AND l.destination_account_id = s.destination_account_id`,
      ids,
    );
    return rows.map(toPending);
  });
}

/** Discards dead publishes (they end as `failed`, their error kept); returns their ids. */
export async function discardDead(db: Db, destinationAccountId?: string): Promise<string[]> {
  const where = {
    status: "dead" as const,
    ...(destinationAccountId ? { destinationAccountId } : {}),
  };
  const rows = await db.syncLog.findMany({ where, select: { id: true } });
  const ids = rows.map((r) => r.id);
  await db.syncLog.updateMany({
    where: { id: { in: ids }, status: "dead" },
    data: { status: "failed", leaseUntil: null },
  });
  return ids;
}

export interface DeadPublish extends PendingPublish {
  error: string;
}

/** Their dead-letter jobs exist: nothing is owed to the mirror any more. */
export async function markDeadLettersMirrored(db: Db, syncLogIds: string[]): Promise<void> {
  if (syncLogIds.length === 0) return;
  await db.syncLog.updateMany({
    where: { id: { in: syncLogIds }, status: "dead" },
    data: { leaseUntil: null },
  });
}
