import type { Db } from "../client.js";
import type { SyncLog } from "../generated/client.js";
import type { FailureRecord } from "./sync-failure.js";
import { PENDING_SYNC_LOGS } from "./sync-logs.js";

// The worker's side of a sync log: each attempt is written before the channel is called and
// its outcome after, so PostgreSQL always says how far a publish got. The listing's status
// changes only when the attempt starts, succeeds, or ends for good.

export interface StartedAttempt {
  syncLog: SyncLog;
  listing: {
    id: string;
    remoteId: string | null;
    remoteUrl: string | null;
    /** What the channel last received (the worker's channel view); null before a first success. */
    syncedView: unknown;
    /** Set while the listing is ended: a publish then lists it anew instead of updating. */
    endedReason: string | null;
  };
}

interface StartedRow {
  id: string;
  org_id: string;
  product_id: string;
  destination_account_id: string;
  job_id: string;
  status: SyncLog["status"];
  attempts: number;
  error: string | null;
  remote_id: string | null;
  remote_url: string | null;
  lease_until: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  run_id: string | null;
  kind: SyncLog["kind"];
  trigger: string | null;
  note: string | null;
  listing_id: string;
  listing_remote_id: string | null;
  listing_remote_url: string | null;
  listing_synced_view: unknown;
  listing_ended_reason: string | null;
}

// One statement for a lane's whole batch (a job's hottest path): each attempt counted, and for a
// publish the listing marked `publishing` (created if the publish is its first); an update or an
// end leaves the listing's status as it is (a live listing stays `published` while it is
// updated). A batch never holds two jobs of one listing (the per (product, destination) lock).
// Returns what the worker needs, one row per attempt started.
const START_ATTEMPTS = `
WITH s AS (
  UPDATE sync_logs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()),
    lease_until = now() + ($2::int * interval '1 millisecond')
  WHERE id = ANY($1::uuid[]) AND ${PENDING_SYNC_LOGS}
  RETURNING *
), l AS (
  INSERT INTO listings (id, org_id, product_id, destination_account_id, status, updated_at)
  SELECT gen_random_uuid(), org_id, product_id, destination_account_id, 'publishing', now() FROM s
  ORDER BY product_id, destination_account_id
  ON CONFLICT (product_id, destination_account_id) DO UPDATE SET
    status = CASE WHEN EXISTS (
      SELECT 1 FROM s WHERE s.product_id = listings.product_id
        AND s.destination_account_id = listings.destination_account_id AND s.kind = 'publish'
    ) THEN 'publishing'::"ListingStatus" ELSE listings.status END,
    updated_at = now()
  RETURNING id, product_id, destination_account_id, remote_id, remote_url, synced_view, ended_reason
)
SELECT s.*, l.id AS listing_id, l.remote_id AS listing_remote_id, l.remote_url AS listing_remote_url,
  l.synced_view AS listing_synced_view, l.ended_reason AS listing_ended_reason
FROM s JOIN l ON l.product_id = s.product_id AND l.destination_account_id = s.destination_account_id`;

const toStarted = (row: StartedRow): StartedAttempt => ({
  syncLog: {
    id: row.id,
    orgId: row.org_id,
    productId: row.product_id,
    destinationAccountId: row.destination_account_id,
    jobId: row.job_id,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    remoteId: row.remote_id,
    remoteUrl: row.remote_url,
    leaseUntil: row.lease_until,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    runId: row.run_id,
    kind: row.kind,
    trigger: row.trigger,
    note: row.note,
    // An attempt under way has not failed for good.
    failure: null,
    failureField: null,
    failureReason: null,
  },
  listing: {
    id: row.listing_id,
    remoteId: row.listing_remote_id,
    remoteUrl: row.listing_remote_url,
    syncedView: row.listing_synced_view,
    endedReason: row.listing_ended_reason,
  },
});

/**
 * Marks the publishes `running` and counts their attempts, in one statement. The map holds those
 * started; a missing id has nothing to do: its sync log is finished (a re-delivered job) or gone
 * with its destination.
 */
export async function startAttempts(
  db: Db,
  syncLogIds: string[],
  leaseMs: number,
): Promise<Map<string, StartedAttempt>> {
  if (syncLogIds.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<StartedRow[]>(START_ATTEMPTS, syncLogIds, leaseMs);
  return new Map(rows.map((row) => [row.id, toStarted(row)]));
}

/** One publish's `startAttempts`; null when there is nothing to do. */
export async function startAttempt(
  db: Db,
  syncLogId: string,
  leaseMs: number,
): Promise<StartedAttempt | null> {
  return (await startAttempts(db, [syncLogId], leaseMs)).get(syncLogId) ?? null;
}

/**
 * Attempts started but not run (the channel asked the destination to wait before their turn):
 * back to `queued` with the attempt not counted, as a wait records it. Only those still `running`.
 */
export async function releaseAttempts(
  db: Db,
  syncLogIds: string[],
  reason: string,
  until: Date,
  leaseMs: number,
): Promise<void> {
  if (syncLogIds.length === 0) return;
  await db.$executeRawUnsafe(
    `UPDATE sync_logs SET status = 'queued', error = $2, attempts = greatest(attempts - 1, 0), lease_until = $3
     WHERE id = ANY($1::uuid[]) AND status = 'running'`,
    syncLogIds,
    reason,
    new Date(until.getTime() + leaseMs),
  );
}

// Every outcome is guarded in SQL: only a publish still pending (`queued` or `running`) takes a
// retry, a wait or a failure, so nothing that arrives late (a Redis error after the success was
// recorded, a second delivery of the job) moves a `succeeded`, `failed` or `dead` publish back.
// A success is the channel's truth and is always recorded.

// A listing whose sync state is `pending` because of a later change keeps it: the sync log that
// change queued is still to run. A listing being ended (`ending`, an end queued meanwhile) stays so.
// One statement for any number of successes (a lane records its batch's together).
const RECORD_SUCCESSES = `
WITH v AS (
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[])
    AS v(id, remote_id, remote_url, view, note)
), s AS (
  UPDATE sync_logs SET status = 'succeeded', error = NULL, remote_id = v.remote_id, remote_url = v.remote_url,
    note = v.note, finished_at = now(), lease_until = NULL
  FROM v WHERE sync_logs.id = v.id
  RETURNING sync_logs.id, sync_logs.product_id, sync_logs.destination_account_id, v.remote_id, v.remote_url, v.view
)
UPDATE listings l SET status = CASE WHEN l.status = 'ending' THEN l.status ELSE 'published'::"ListingStatus" END,
  remote_id = s.remote_id, remote_url = s.remote_url, last_synced_at = now(), last_error = NULL,
  synced_view = coalesce(s.view::jsonb, l.synced_view), ended_reason = NULL, sync_error = NULL,
  sync_state = CASE WHEN EXISTS (
    SELECT 1 FROM sync_logs q WHERE q.product_id = l.product_id AND q.destination_account_id = l.destination_account_id
      AND q.status = 'queued' AND q.kind IN ('publish', 'update') AND q.id <> s.id
  ) THEN 'pending'::"ListingSyncState" ELSE 'inSync'::"ListingSyncState" END,
  updated_at = now()
FROM s WHERE l.product_id = s.product_id AND l.destination_account_id = s.destination_account_id`;

/** What a success records besides the channel's ids. */
export interface SuccessDetails {
  /** The channel view the listing now carries (see the publish worker's channel-view.ts). */
  view?: unknown;
  /** What the job did, when it was not a plain publish ("nothing the channel receives changed"). */
  note?: string | null;
}

/** One success to record: the sync log, the channel's ids, and what else it records. */
export interface Success extends SuccessDetails {
  syncLogId: string;
  remoteId: string;
  remoteUrl: string | null;
}

/**
 * Each sync log `succeeded` and its listing `published` (in sync) with the channel's ids, all in
 * one statement.
 */
export async function recordSuccesses(db: Db, successes: Success[]): Promise<void> {
  if (successes.length === 0) return;
  await db.$executeRawUnsafe(
    RECORD_SUCCESSES,
    successes.map((s) => s.syncLogId),
    successes.map((s) => s.remoteId),
    successes.map((s) => s.remoteUrl),
    successes.map((s) => (s.view === undefined ? null : JSON.stringify(s.view))),
    successes.map((s) => s.note ?? null),
  );
}

/** One success (`recordSuccesses` of one). */
export async function recordSuccess(
  db: Db,
  log: SyncLog,
  remote: { remoteId: string; remoteUrl: string | null },
  details: SuccessDetails = {},
): Promise<void> {
  await recordSuccesses(db, [{ syncLogId: log.id, ...remote, ...details }]);
}

const RECORD_ENDED = `
WITH s AS (
  UPDATE sync_logs SET status = 'succeeded', error = NULL, note = $3, finished_at = now(), lease_until = NULL
  WHERE id = $1::uuid RETURNING product_id, destination_account_id
)
UPDATE listings l SET status = 'ended', ended_reason = $2, last_synced_at = now(), last_error = NULL,
  sync_state = 'inSync', sync_error = NULL, updated_at = now()
FROM s WHERE l.product_id = s.product_id AND l.destination_account_id = s.destination_account_id`;

/**
 * The listing ended on the channel: the sync log `succeeded` and the listing `ended` with the
 * reason; its remote id is kept.
 */
export async function recordEnded(
  db: Db,
  log: SyncLog,
  reason: string,
  note: string | null = null,
): Promise<void> {
  await db.$executeRawUnsafe(RECORD_ENDED, log.id, reason, note);
}

/**
 * Stores the remote id as soon as the channel gave one, so a later retry updates instead of
 * creating.
 */
export async function rememberRemoteId(
  db: Db,
  log: SyncLog,
  remoteId: string,
  remoteUrl: string | null,
): Promise<void> {
  // A listing listed anew (after it ended) is no longer the ended one.
  await db.listing.updateMany({
    where: { productId: log.productId, destinationAccountId: log.destinationAccountId },
    data: { remoteId, remoteUrl, endedReason: null },
  });
}

/**
 * The attempt failed and will be retried at `retryAt`: back to `queued`, the error kept. False
 * when the publish was no longer pending (nothing was written).
 */
export async function recordRetry(
  db: Db,
  syncLogId: string,
  error: string,
  retryAt: Date,
  leaseMs: number,
): Promise<boolean> {
  const leaseUntil = new Date(retryAt.getTime() + leaseMs);
  return (
    (await db.$executeRawUnsafe(
      `UPDATE sync_logs SET status = 'queued', error = $2, lease_until = $3 WHERE id = $1::uuid AND ${PENDING_SYNC_LOGS}`,
      syncLogId,
      error,
      leaseUntil,
    )) > 0
  );
}

/**
 * The channel (or the breaker) asked to wait: back to `queued`, and the attempt is not counted.
 * False when no longer pending.
 */
export async function recordWait(
  db: Db,
  syncLogId: string,
  reason: string,
  until: Date,
  leaseMs: number,
): Promise<boolean> {
  const leaseUntil = new Date(until.getTime() + leaseMs);
  return (
    (await db.$executeRawUnsafe(
      `UPDATE sync_logs SET status = 'queued', error = $2, attempts = greatest(attempts - 1, 0), lease_until = $3 WHERE id = $1::uuid AND ${PENDING_SYNC_LOGS}`,
      syncLogId,
      reason,
      leaseUntil,
    )) > 0
  );
}

// The listing changes only when its sync log did, in the same statement: a failed publish makes
// it `failed`; a failed update leaves it live (its sync state `failed` with the reason); a failed
// end puts it back to `published`, saying it could not be ended.
const RECORD_END = `
WITH s AS (
  UPDATE sync_logs SET status = $2::"SyncStatus", error = $3, finished_at = now(), lease_until = $4,
    failure = $5::"SyncFailure", failure_field = $6, failure_reason = $7
  WHERE id = $1::uuid AND ${PENDING_SYNC_LOGS} RETURNING product_id, destination_account_id, kind
), l AS (
  UPDATE listings l SET
    status = CASE s.kind WHEN 'publish' THEN 'failed'::"ListingStatus" WHEN 'end' THEN 'published'::"ListingStatus" ELSE l.status END,
    last_error = CASE s.kind WHEN 'publish' THEN $3 WHEN 'end' THEN 'could not end: ' || $3 ELSE l.last_error END,
    sync_state = CASE s.kind WHEN 'update' THEN 'failed'::"ListingSyncState" ELSE l.sync_state END,
    sync_error = CASE s.kind WHEN 'update' THEN $3 ELSE l.sync_error END,
    updated_at = now()
  FROM s WHERE l.product_id = s.product_id AND l.destination_account_id = s.destination_account_id
  RETURNING 1
)
SELECT count(*)::int AS n FROM s`;

/**
 * The publish ended without success: `failed` (given up) or `dead` (out of attempts). A dead one
 * keeps a lease (`mirrorWithinMs`) until its dead-letter job is known to exist
 * (`markDeadLettersMirrored`): the recovery adds the jobs whose lease ran out, so the mirror in
 * Redis follows the record even when adding it failed. False when the publish was no longer
 * pending (nothing was written).
 */
export async function recordFinalFailure(
  db: Db,
  log: SyncLog,
  error: string,
  end: { status: "failed" } | { status: "dead"; mirrorWithinMs: number },
  /** What it needs before it can succeed (sync-failure.ts); left out, it stays unclassified. */
  failure: FailureRecord | null = null,
): Promise<boolean> {
  const leaseUntil = end.status === "dead" ? new Date(Date.now() + end.mirrorWithinMs) : null;
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    RECORD_END,
    log.id,
    end.status,
    error,
    leaseUntil,
    failure?.kind ?? null,
    failure?.field ?? null,
    failure?.reason ?? null,
  );
  return (row?.n ?? 0) > 0;
}
