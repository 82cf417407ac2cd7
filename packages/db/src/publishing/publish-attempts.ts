import type { Db } from "../client.js";
import type { SyncLog } from "../generated/client.js";

// The worker's side of a sync log: each attempt is written before the channel is called and
// its outcome after, so PostgreSQL always says how far a publish got. The listing's status
// changes only when the attempt starts, succeeds, or ends for good.

export interface StartedAttempt {
  syncLog: SyncLog;
  listing: { id: string; remoteId: string | null };
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
  listing_id: string;
  listing_remote_id: string | null;
}

// One statement (a job's hottest path): the attempt counted, and the listing marked `publishing`
// (created if the publish is its first), returning what the worker needs.
const START_ATTEMPT = `
WITH s AS (
  UPDATE sync_logs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()),
    lease_until = now() + ($2::int * interval '1 millisecond')
  WHERE id = $1::uuid AND status IN ('queued', 'running')
  RETURNING *
), l AS (
  INSERT INTO listings (id, org_id, product_id, destination_account_id, status, updated_at)
  SELECT gen_random_uuid(), org_id, product_id, destination_account_id, 'publishing', now() FROM s
  ON CONFLICT (product_id, destination_account_id) DO UPDATE SET status = 'publishing', updated_at = now()
  RETURNING id, remote_id
)
SELECT s.*, l.id AS listing_id, l.remote_id AS listing_remote_id FROM s, l`;

/**
 * Marks the publish `running` and counts the attempt. Null when there is nothing to do: the
 * sync log is finished (a re-delivered job) or gone with its destination.
 */
export async function startAttempt(
  db: Db,
  syncLogId: string,
  leaseMs: number,
): Promise<StartedAttempt | null> {
  const [row] = await db.$queryRawUnsafe<StartedRow[]>(START_ATTEMPT, syncLogId, leaseMs);
  if (!row) return null;
  const syncLog: SyncLog = {
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
  };
  return { syncLog, listing: { id: row.listing_id, remoteId: row.listing_remote_id } };
}

// Every outcome is guarded in SQL: only a publish still pending (`queued` or `running`) takes a
// retry, a wait or a failure, so nothing that arrives late (a Redis error after the success was
// recorded, a second delivery of the job) moves a `succeeded`, `failed` or `dead` publish back.
// A success is the channel's truth and is always recorded.
const PENDING = `status IN ('queued', 'running')`;

const RECORD_SUCCESS = `
WITH s AS (
  UPDATE sync_logs SET status = 'succeeded', error = NULL, remote_id = $2, remote_url = $3, finished_at = now(), lease_until = NULL
  WHERE id = $1::uuid RETURNING product_id, destination_account_id
)
UPDATE listings l SET status = 'published', remote_id = $2, remote_url = $3, last_synced_at = now(), last_error = NULL, updated_at = now()
FROM s WHERE l.product_id = s.product_id AND l.destination_account_id = s.destination_account_id`;

/**
 * The sync log `succeeded` and the listing `published` with the channel's ids, in one statement.
 */
export async function recordSuccess(
  db: Db,
  log: SyncLog,
  remote: { remoteId: string; remoteUrl: string | null },
): Promise<void> {
  await db.$executeRawUnsafe(RECORD_SUCCESS, log.id, remote.remoteId, remote.remoteUrl);
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
  await db.listing.updateMany({
    where: { productId: log.productId, destinationAccountId: log.destinationAccountId },
    data: { remoteId, remoteUrl },
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
      `UPDATE sync_logs SET status = 'queued', error = $2, lease_until = $3 WHERE id = $1::uuid AND ${PENDING}`,
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
      `UPDATE sync_logs SET status = 'queued', error = $2, attempts = greatest(attempts - 1, 0), lease_until = $3 WHERE id = $1::uuid AND ${PENDING}`,
      syncLogId,
      reason,
      leaseUntil,
    )) > 0
  );
}

// The listing changes only when its sync log did, in the same statement.
const RECORD_END = `
WITH s AS (
  UPDATE sync_logs SET status = $2::"SyncStatus", error = $3, finished_at = now(), lease_until = $4
  WHERE id = $1::uuid AND ${PENDING} RETURNING product_id, destination_account_id
), l AS (
  UPDATE listings l SET status = 'failed', last_error = $3, updated_at = now()
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
): Promise<boolean> {
  const leaseUntil = end.status === "dead" ? new Date(Date.now() + end.mirrorWithinMs) : null;
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    RECORD_END,
    log.id,
    end.status,
    error,
    leaseUntil,
  );
  return (row?.n ?? 0) > 0;
}
