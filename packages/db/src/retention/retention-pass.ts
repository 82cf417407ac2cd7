import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { RetentionPolicy } from "./policy.js";
import { sweepSyncLogs, type SweepSteps } from "./sync-log-retention.js";

/** The session-level advisory lock one pass holds, so that one replica (or the CLI) runs at once. */
const LOCK = `hashtextextended('catalog.retention', 0)`;

export interface RetentionRemoved {
  syncLogs: number;
  productHistory: number;
  importRows: number;
  /** Imports past their expiry, removed whole (the lazy tidy of an org that never looks again). */
  imports: number;
  sessions: number;
}

export type RetentionOutcome =
  | { ran: false; reason: string }
  | {
      ran: true;
      removed: RetentionRemoved;
      durationMs: number;
      /** Stopped before the end (the process is shutting down); the next pass goes on. */
      stopped: boolean;
    };

export interface RetentionPassOptions {
  /** Now, for the cut-offs (tests). */
  now?: Date;
  /** Stops the pass between two batches. */
  signal?: AbortSignal;
}

class Stopped extends Error {}

const DAY_MS = 86_400_000;
/** A cut-off as the timestamp(3) columns hold it (UTC, no zone). */
const cutoff = (now: Date, days: number) =>
  new Date(now.getTime() - days * DAY_MS).toISOString().replace("T", " ").replace("Z", "");

const emptyRemoved = (): RetentionRemoved => ({
  syncLogs: 0,
  productHistory: 0,
  importRows: 0,
  imports: 0,
  sessions: 0,
});

/**
 * One retention pass over the whole database, on a connection of its own: nothing if another pass
 * holds the lock. Every removal is a statement of at most `batchSize` rows, its own short
 * transaction, with `batchPauseMs` between two, so no lock is held for long and autovacuum
 * reclaims the space as the pass goes.
 */
export async function runRetentionPass(
  databaseUrl: string,
  policy: RetentionPolicy,
  options: RetentionPassOptions = {},
): Promise<RetentionOutcome> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: "catalog-retention",
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(${LOCK}) AS locked`,
    );
    if (!rows[0]?.locked) return { ran: false, reason: "another retention pass is running" };
    try {
      return await removeExpired(client, policy, options);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK})`);
    }
  } finally {
    await client.end();
  }
}

async function removeExpired(
  client: pg.Client,
  policy: RetentionPolicy,
  options: RetentionPassOptions,
): Promise<RetentionOutcome> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const removed = emptyRemoved();
  // A batch never waits long behind another transaction's locks: it fails, and the next pass
  // tries again.
  await client.query(`SET lock_timeout = '5s'`);
  await client.query(`SET statement_timeout = '120s'`);
  const checkStop = () => {
    if (options.signal?.aborted) throw new Stopped();
  };
  const between = async () => {
    checkStop();
    if (policy.batchPauseMs > 0) await sleep(policy.batchPauseMs);
    checkStop();
  };
  const steps = (kind: keyof RetentionRemoved): SweepSteps => ({
    between,
    removed: (count) => void (removed[kind] += count),
  });
  let stopped = false;
  try {
    await removeSessions(
      client,
      cutoff(now, policy.sessionDays),
      policy.batchSize,
      steps("sessions"),
    );
    const orgs = await client.query<{ id: string }>(`SELECT id FROM orgs ORDER BY id`);
    for (const org of orgs.rows) {
      await sweepSyncLogs(
        client,
        org.id,
        {
          success: cutoff(now, policy.syncLogSuccessDays),
          failure: cutoff(now, policy.syncLogFailureDays),
        },
        policy.batchSize,
        steps("syncLogs"),
      );
      checkStop();
    }
    await removeImportRows(client, cutoff(now, policy.importRowsDays), policy, {
      rows: steps("importRows"),
      imports: steps("imports"),
    });
    if (policy.productHistoryDays !== null)
      await removeHistory(
        client,
        cutoff(now, policy.productHistoryDays),
        policy.batchSize,
        steps("productHistory"),
      );
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
    stopped = true;
  }
  return { ran: true, removed, durationMs: Math.round(performance.now() - started), stopped };
}

/** Sessions that expired or were revoked before the cut-off (a statement trigger notifies once). */
async function removeSessions(
  client: pg.Client,
  before: string,
  batchSize: number,
  steps: SweepSteps,
): Promise<void> {
  for (;;) {
    const { rowCount } = await client.query(
      `DELETE FROM sessions WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM sessions WHERE expires_at < $1::timestamp OR revoked_at < $1::timestamp LIMIT $2))`,
      [before, batchSize],
    );
    const count = rowCount ?? 0;
    if (count > 0) steps.removed(count);
    if (count < batchSize) return;
    await steps.between();
  }
}

/** Deletes an import's rows in `seq` order, batch by batch; returns how many. */
async function deleteImportRows(
  client: pg.Client,
  importId: string,
  batchSize: number,
  steps: SweepSteps,
): Promise<void> {
  let after = -1;
  for (;;) {
    const { rows } = await client.query<{ removed: number; last: number | null }>(
      `WITH batch AS (
         SELECT seq FROM import_rows WHERE import_id = $1::uuid AND seq > $2 ORDER BY seq LIMIT $3
       ), gone AS (
         DELETE FROM import_rows r USING batch b WHERE r.import_id = $1::uuid AND r.seq = b.seq RETURNING r.seq
       )
       SELECT count(*)::int AS removed, max(seq) AS last FROM gone`,
      [importId, after, batchSize],
    );
    const { removed, last } = rows[0]!;
    if (removed > 0) steps.removed(removed);
    if (removed < batchSize || last === null) return;
    after = last;
    await steps.between();
  }
}

/**
 * The rows of stored and failed imports that ended before the cut-off: the import is marked first
 * (its rows view then says they were removed by retention, and a pass cut short resumes), then
 * its rows go batch by batch. Imports past their expiry go whole, as the org's own reads would
 * remove them, their rows first in batches.
 */
async function removeImportRows(
  client: pg.Client,
  endedBefore: string,
  policy: RetentionPolicy,
  steps: { rows: SweepSteps; imports: SweepSteps },
): Promise<void> {
  const due = await client.query<{ id: string }>(
    `SELECT i.id FROM imports i
     WHERE i.status IN ('stored', 'failed') AND i.updated_at < $1::timestamp
       AND EXISTS (SELECT 1 FROM import_rows r WHERE r.import_id = i.id)
     ORDER BY i.updated_at`,
    [endedBefore],
  );
  for (const { id } of due.rows) {
    const marked = await client.query(
      `UPDATE imports SET rows_removed_at = coalesce(rows_removed_at, now())
       WHERE id = $1::uuid AND status IN ('stored', 'failed')`,
      [id],
    );
    if (marked.rowCount === 1) await deleteImportRows(client, id, policy.batchSize, steps.rows);
    await steps.rows.between();
  }
  const expired = await client.query<{ id: string }>(
    `SELECT id FROM imports WHERE expires_at < now() AND status NOT IN ('previewing', 'storing')
     ORDER BY expires_at`,
  );
  for (const { id } of expired.rows) {
    await deleteImportRows(client, id, policy.batchSize, steps.rows);
    const gone = await client.query(
      `DELETE FROM imports WHERE id = $1::uuid AND expires_at < now()
         AND status NOT IN ('previewing', 'storing')`,
      [id],
    );
    if (gone.rowCount) steps.imports.removed(gone.rowCount);
    await steps.imports.between();
  }
}

/**
 * History entries written before the cut-off, swept by ranges of the table's pages (a TID range
 * scan), so each statement reads a bounded slice whatever the table holds and the whole sweep
 * reads it once.
 */
async function removeHistory(
  client: pg.Client,
  before: string,
  batchSize: number,
  steps: SweepSteps,
): Promise<void> {
  const { rows } = await client.query<{ pages: number }>(
    `SELECT (pg_relation_size('product_history') / current_setting('block_size')::int)::int AS pages`,
  );
  const pages = rows[0]?.pages ?? 0;
  // About 50 entries fit a page: a slice holds about a batch.
  const step = Math.max(1, Math.floor(batchSize / 50));
  for (let page = 0; page < pages; page += step) {
    const { rowCount } = await client.query(
      `DELETE FROM product_history
       WHERE ctid >= $1::tid AND ctid < $2::tid AND at < $3::timestamp`,
      [`(${page},0)`, `(${page + step},0)`, before],
    );
    if (rowCount) steps.removed(rowCount);
    await steps.between();
  }
}
