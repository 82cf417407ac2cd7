import type { Db } from "../client.js";
import type { PublishJobRecord } from "./publish-requests.js";
import { newRecords } from "./publish-requests.js";
import { retryOnConflict } from "../transaction-retry.js";

// Delisting (issue 29): ending listings is asynchronous like publishing. A request records one
// `end` sync log per live listing (the listing goes `ending`), the publish worker calls the
// channel's end and marks the listing `ended`; a product deleted while it had live listings is
// hidden at once (`deletedAt`) and its row removed when its last live listing has ended.

export interface ListingEndRequest {
  orgId: string;
  productIds: string[];
  destinationIds: string[];
  /** Why, for the sync log and the listing ("unpublished by owner@demo.local", "product deleted"). */
  trigger: string;
  /** How long the queued end may sit untouched before the workers' recovery enqueues it again. */
  leaseMs?: number;
}

/** A product x destination that got no end, and why. */
export interface ListingEndSkip {
  productId: string;
  destinationAccountId: string;
  reason: string;
}

export interface ListingEndPlan {
  /** The ends recorded: enqueue them after the call (the job id is the sync log id). */
  records: PublishJobRecord[];
  skipped: ListingEndSkip[];
}

const DEFAULT_LEASE_MS = 60_000;

export const SKIP_REASONS = {
  notListed: "not listed on this destination",
  alreadyEnded: "the listing is already ended",
  alreadyEnding: "an end of this listing is already queued or running",
  publishUnderWay: "its first publish is still under way: unpublish once it has finished",
  neverLive: "never published there: marked ended without a call to the channel",
  disconnected: "the destination is disconnected: its listing stays on the store",
} as const;

interface ListingRow {
  id: string;
  product_id: string;
  destination_account_id: string;
  status: string;
  remote_id: string | null;
  end_pending: boolean;
  disconnected: boolean;
}

/**
 * The listings of these products on these destinations, locked in id order (ARCHITECTURE.md,
 * "Row locks"), with whether an end of each is already queued or running.
 */
const LOCK_LISTINGS = `
SELECT l.id, l.product_id, l.destination_account_id, l.status::text AS status, l.remote_id,
  EXISTS (
    SELECT 1 FROM sync_logs s
    WHERE s.product_id = l.product_id AND s.destination_account_id = l.destination_account_id
      AND s.kind = 'end' AND s.status IN ('queued', 'running')
  ) AS end_pending,
  EXISTS (
    SELECT 1 FROM destination_accounts d WHERE d.id = l.destination_account_id AND d.disconnected_at IS NOT NULL
  ) AS disconnected
FROM listings l
WHERE l.org_id = $1::uuid AND l.product_id = ANY($2::uuid[]) AND l.destination_account_id = ANY($3::uuid[])
ORDER BY l.id FOR UPDATE OF l`;

/**
 * Plans and records the ends of these products' listings on these destinations in one
 * transaction: a live listing (a remote id, not ended, no end already pending) gets one queued
 * `end` sync log (`trigger` says why) and turns `ending`; one that never reached the store (no
 * remote id, no publish under way) is marked `ended` without a channel call. Every other pair is
 * skipped with the reason.
 */
export async function planListingEnds(db: Db, request: ListingEndRequest): Promise<ListingEndPlan> {
  const products = [...new Set(request.productIds)];
  const destinations = [...new Set(request.destinationIds)];
  if (products.length === 0 || destinations.length === 0) return { records: [], skipped: [] };
  const leaseUntil = new Date(Date.now() + (request.leaseMs ?? DEFAULT_LEASE_MS));
  return retryOnConflict(() =>
    db.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<ListingRow[]>(
        LOCK_LISTINGS,
        request.orgId,
        products,
        destinations,
      );
      const byCell = new Map(rows.map((r) => [`${r.product_id} ${r.destination_account_id}`, r]));
      const toEnd: ListingRow[] = [];
      const neverLive: ListingRow[] = [];
      const skipped: ListingEndSkip[] = [];
      for (const destinationAccountId of destinations) {
        for (const productId of products) {
          const row = byCell.get(`${productId} ${destinationAccountId}`);
          const skip = (reason: string) =>
            skipped.push({ productId, destinationAccountId, reason });
          if (!row) skip(SKIP_REASONS.notListed);
          else if (row.disconnected) skip(SKIP_REASONS.disconnected);
          else if (row.status === "ended") skip(SKIP_REASONS.alreadyEnded);
          else if (row.remote_id === null) {
            if (row.status === "queued" || row.status === "publishing")
              skip(SKIP_REASONS.publishUnderWay);
            else {
              neverLive.push(row);
              skip(SKIP_REASONS.neverLive);
            }
          } else if (row.end_pending) skip(SKIP_REASONS.alreadyEnding);
          else toEnd.push(row);
        }
      }
      const records = newRecords(
        request.orgId,
        null,
        toEnd.map((r) => ({
          productId: r.product_id,
          destinationAccountId: r.destination_account_id,
        })),
      );
      if (records.length > 0) {
        await tx.$executeRawUnsafe(
          `INSERT INTO sync_logs (id, org_id, product_id, destination_account_id, job_id, status, attempts, lease_until, created_at, kind, trigger)
           SELECT v.id, $1::uuid, v.product_id, v.destination_id, v.id::text, 'queued', 0, $5, now(), 'end', $6
           FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS v(id, product_id, destination_id)`,
          request.orgId,
          records.map((r) => r.syncLogId),
          records.map((r) => r.productId),
          records.map((r) => r.destinationAccountId),
          leaseUntil,
          request.trigger,
        );
        await tx.$executeRawUnsafe(
          `UPDATE listings SET status = 'ending', updated_at = now() WHERE id = ANY($1::uuid[])`,
          toEnd.map((r) => r.id),
        );
      }
      if (neverLive.length > 0) {
        await tx.$executeRawUnsafe(
          `UPDATE listings SET status = 'ended', ended_reason = $2, updated_at = now() WHERE id = ANY($1::uuid[])`,
          neverLive.map((r) => r.id),
          request.trigger,
        );
      }
      return { records, skipped };
    }),
  );
}

/** Records the ends and returns them, to be enqueued by the caller after its transaction. */
export async function requestListingEnds(
  db: Db,
  request: ListingEndRequest,
): Promise<PublishJobRecord[]> {
  return (await planListingEnds(db, request)).records;
}

/**
 * Called by the publish worker after a listing of the product ended: removes the product's row
 * (and so its listings) when the product was deleted and no listing of it is live any more.
 * Returns whether it removed it.
 */
export async function removeProductIfAllEnded(db: Db, productId: string): Promise<boolean> {
  const removed = await db.$executeRawUnsafe(
    `DELETE FROM products p
     WHERE p.id = $1::uuid AND p.deleted_at IS NOT NULL
       AND NOT EXISTS (${LIVE_LISTING_OF("p.id")})`,
    productId,
  );
  return removed > 0;
}

/** A listing of the product that is still live on its store (remote id, not ended). */
export const LIVE_LISTING_OF = (productColumn: string) =>
  `SELECT 1 FROM listings l WHERE l.product_id = ${productColumn} AND l.remote_id IS NOT NULL AND l.status <> 'ended'`;
