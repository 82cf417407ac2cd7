import type { Db } from "../client.js";
import type { SyncLog } from "../generated/client.js";

// The worker's side of a sync log: each attempt is written before the channel is called and
// its outcome after, so PostgreSQL always says how far a publish got. The listing's status
// changes only when the attempt starts, succeeds, or ends for good.

export interface StartedAttempt {
  syncLog: SyncLog;
  listing: { id: string; remoteId: string | null };
}

/**
 * Marks the publish `running` and counts the attempt. Null when there is nothing to do: the
 * sync log is finished (a re-delivered job) or gone with its destination.
 */
export async function startAttempt(db: Db, syncLogId: string, leaseMs: number): Promise<StartedAttempt | null> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      `UPDATE sync_logs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()),
         lease_until = now() + ($2::int * interval '1 millisecond')
       WHERE id = $1::uuid AND status IN ('queued', 'running') RETURNING id`,
      syncLogId, leaseMs,
    );
    if (rows.length === 0) return null;
    const syncLog = await tx.syncLog.findUniqueOrThrow({ where: { id: syncLogId } });
    const listing = await tx.listing.upsert({
      where: { productId_destinationAccountId: { productId: syncLog.productId, destinationAccountId: syncLog.destinationAccountId } },
      create: { orgId: syncLog.orgId, productId: syncLog.productId, destinationAccountId: syncLog.destinationAccountId, status: "publishing" },
      update: { status: "publishing" },
      select: { id: true, remoteId: true },
    });
    return { syncLog, listing };
  });
}

export async function recordSuccess(db: Db, log: SyncLog, remote: { remoteId: string; remoteUrl: string | null }): Promise<void> {
  const now = new Date();
  await db.$transaction([
    db.syncLog.update({
      where: { id: log.id },
      data: { status: "succeeded", error: null, remoteId: remote.remoteId, remoteUrl: remote.remoteUrl, finishedAt: now, leaseUntil: null },
    }),
    db.listing.update({
      where: { productId_destinationAccountId: { productId: log.productId, destinationAccountId: log.destinationAccountId } },
      data: { status: "published", remoteId: remote.remoteId, remoteUrl: remote.remoteUrl, lastSyncedAt: now, lastError: null },
    }),
  ]);
}

/** Stores the remote id as soon as the channel gave one, so a later retry updates instead of creating. */
export async function rememberRemoteId(db: Db, log: SyncLog, remoteId: string): Promise<void> {
  await db.listing.updateMany({ where: { productId: log.productId, destinationAccountId: log.destinationAccountId }, data: { remoteId } });
}

/** The attempt failed and will be retried at `retryAt`: back to `queued`, the error kept. */
export async function recordRetry(db: Db, syncLogId: string, error: string, retryAt: Date, leaseMs: number): Promise<void> {
  await db.syncLog.update({
    where: { id: syncLogId },
    data: { status: "queued", error, leaseUntil: new Date(retryAt.getTime() + leaseMs) },
  });
}

/** The channel (or the breaker) asked to wait: back to `queued`, and the attempt is not counted. */
export async function recordWait(db: Db, syncLogId: string, reason: string, until: Date, leaseMs: number): Promise<void> {
  await db.syncLog.update({
    where: { id: syncLogId },
    data: { status: "queued", error: reason, attempts: { decrement: 1 }, leaseUntil: new Date(until.getTime() + leaseMs) },
  });
}

/** The publish ended without success: `failed` (given up) or `dead` (out of attempts, in the dead-letter queue). */
export async function recordFinalFailure(db: Db, log: SyncLog, error: string, status: "failed" | "dead"): Promise<void> {
  await db.$transaction([
    db.syncLog.update({ where: { id: log.id }, data: { status, error, finishedAt: new Date(), leaseUntil: null } }),
    db.listing.update({
      where: { productId_destinationAccountId: { productId: log.productId, destinationAccountId: log.destinationAccountId } },
      data: { status: "failed", lastError: error },
    }),
  ]);
}
