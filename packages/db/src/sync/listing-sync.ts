import type { Db } from "../client.js";
import type { PublishJobRecord } from "../publishing/publish-requests.js";

// Automatic sync (issue 29): a change of a product that is live on destinations with automatic
// sync on becomes one pending `update` sync log per listing, coalesced (a listing that already
// has an update waiting gets none more: the update loads the latest product when it runs).

/** A client of `planListingSyncs`: the db or a transaction's client. */
type DbClient = Pick<Db, "$queryRawUnsafe" | "$executeRawUnsafe">;

export interface ListingSyncRequest {
  orgId: string;
  productIds: string[];
  /** What changed and who changed it, for the sync log ("price changed by import Spring"). */
  trigger: string;
  /** How long the syncs may sit unenqueued before the workers' recovery enqueues them. */
  leaseMs?: number;
}

/** The reason a listing ended for stock: the planner relists these when stock returns. */
export const OUT_OF_STOCK = "out of stock";

/** How long a planned sync may sit unenqueued before the workers' recovery enqueues it. */
const SYNC_LEASE_MS = 60_000; // the gateway's PENDING_LEASE_MS

// One statement for any number of products. A listing is live when it is published, or
// publishing/failed with a remote id (a republish of a live listing); listings ended for stock
// are relisted (kind `publish`) once the product has stock again. A listing with a queued
// publish or update already gets nothing: that one loads the latest product when it runs. One
// that is running gets one more, which the worker's per (product, destination) lock runs after
// it. The listings are locked in id order (the one order of "Row locks") before the logs are
// written.
const PLAN = `
WITH live AS (
  SELECT l.id AS listing_id, l.product_id, l.destination_account_id, (l.status = 'ended') AS relist
  FROM listings l
  JOIN destination_accounts d ON d.id = l.destination_account_id
  JOIN products p ON p.id = l.product_id
  WHERE l.org_id = $1::uuid AND l.product_id = ANY($2::uuid[])
    AND d.disconnected_at IS NULL AND d.auto_sync AND p.deleted_at IS NULL
    AND (
      l.status = 'published'
      OR (l.status IN ('publishing', 'failed') AND l.remote_id IS NOT NULL)
      OR (l.status = 'ended' AND l.ended_reason = '${OUT_OF_STOCK}'
          AND (coalesce(p.quantity, 0) > 0 OR jsonb_path_exists(p.variants, '$[*] ? (@.quantity > 0)')))
    )
    AND NOT EXISTS (
      SELECT 1 FROM sync_logs s
      WHERE s.product_id = l.product_id AND s.destination_account_id = l.destination_account_id
        AND s.status = 'queued' AND s.kind IN ('publish', 'update')
    )
  ORDER BY l.id
  FOR UPDATE OF l
), logs AS (
  INSERT INTO sync_logs (id, org_id, product_id, destination_account_id, job_id, status, attempts, lease_until, created_at, kind, trigger)
  SELECT v.id, $1::uuid, v.product_id, v.destination_account_id, v.id::text, 'queued', 0, $4, now(),
    CASE WHEN v.relist THEN 'publish'::"SyncKind" ELSE 'update'::"SyncKind" END, $3
  FROM (SELECT gen_random_uuid() AS id, live.* FROM live) v
  RETURNING id, product_id, destination_account_id
), marked AS (
  UPDATE listings l SET sync_state = 'pending',
    status = CASE WHEN l.status = 'ended' THEN 'queued'::"ListingStatus" ELSE l.status END,
    updated_at = now()
  FROM live WHERE l.id = live.listing_id
  RETURNING 1
)
SELECT id::text AS id, product_id::text AS product_id, destination_account_id::text AS destination_account_id,
  (SELECT count(*) FROM marked)::int AS marked
FROM logs`;

/**
 * Records the updates that the change of these products calls for and returns them, to be
 * enqueued by the caller after its transaction commits (the publish worker's recovery enqueues
 * any that a crash left behind).
 */
export async function planListingSyncs(
  db: DbClient,
  request: ListingSyncRequest,
): Promise<PublishJobRecord[]> {
  if (request.productIds.length === 0) return [];
  const rows = await db.$queryRawUnsafe<
    { id: string; product_id: string; destination_account_id: string }[]
  >(
    PLAN,
    request.orgId,
    [...new Set(request.productIds)],
    request.trigger,
    new Date(Date.now() + (request.leaseMs ?? SYNC_LEASE_MS)),
  );
  return rows.map((r) => ({
    syncLogId: r.id,
    jobId: r.id,
    orgId: request.orgId,
    runId: null,
    productId: r.product_id,
    destinationAccountId: r.destination_account_id,
  }));
}
