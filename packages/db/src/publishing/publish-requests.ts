import { randomUUID } from "node:crypto";
import type { Db } from "../client.js";
import type { Channel } from "../generated/enums.js";
import { isUuid } from "../ids.js";
import { invalid } from "../service-error.js";

/** One product x destination publish, as recorded before it is enqueued. */
export interface PublishJobRecord {
  syncLogId: string;
  jobId: string;
  orgId: string;
  productId: string;
  destinationAccountId: string;
}

export interface PublishTargets {
  productIds: string[];
  destinations: { id: string; channel: Channel }[];
}

const listIds = (ids: string[]) => ids.join(", ");

/**
 * Checks that every product is in the org's catalog and every destination is connected to the
 * org; 422 names the ids that are not.
 */
export async function checkPublishTargets(db: Db, orgId: string, productIds: string[], destinationIds: string[]): Promise<PublishTargets> {
  const products = [...new Set(productIds)];
  const destinations = [...new Set(destinationIds)];
  const [foundProducts, foundDestinations] = await Promise.all([
    db.product.findMany({ where: { orgId, id: { in: products.filter(isUuid) } }, select: { id: true } }),
    db.destinationAccount.findMany({ where: { orgId, id: { in: destinations.filter(isUuid) }, disconnectedAt: null }, select: { id: true, channel: true } }),
  ]);
  const knownProducts = new Set(foundProducts.map((p) => p.id));
  const unknownProducts = products.filter((id) => !knownProducts.has(id));
  const knownDestinations = new Map(foundDestinations.map((d) => [d.id, d]));
  const unknownDestinations = destinations.filter((id) => !knownDestinations.has(id));
  const problems = [
    unknownProducts.length > 0 ? `unknown product ids: ${listIds(unknownProducts)}` : null,
    unknownDestinations.length > 0 ? `unknown or disconnected destination ids: ${listIds(unknownDestinations)}` : null,
  ].filter(Boolean);
  if (problems.length > 0) throw invalid(problems.join("; "));
  return { productIds: products, destinations: destinations.map((id) => knownDestinations.get(id)!) };
}

/**
 * Writes one `queued` sync log per product x destination and marks their listings `queued`,
 * in one transaction, before anything is enqueued: PostgreSQL is the record the recovery
 * re-enqueues from. The job id is the sync log id, so enqueueing it twice is harmless.
 */
export async function recordPublishRequest(
  db: Db,
  orgId: string,
  targets: { productIds: string[]; destinationIds: string[] },
  leaseMs: number,
): Promise<PublishJobRecord[]> {
  const records: PublishJobRecord[] = [];
  for (const destinationAccountId of targets.destinationIds) {
    for (const productId of targets.productIds) {
      const id = randomUUID();
      records.push({ syncLogId: id, jobId: id, orgId, productId, destinationAccountId });
    }
  }
  const ids = records.map((r) => r.syncLogId);
  const products = records.map((r) => r.productId);
  const destinations = records.map((r) => r.destinationAccountId);
  const leaseUntil = new Date(Date.now() + leaseMs);
  await db.$transaction([
    db.$executeRawUnsafe(
      `INSERT INTO sync_logs (id, org_id, product_id, destination_account_id, job_id, status, attempts, lease_until, created_at)
       SELECT v.id, $1::uuid, v.product_id, v.destination_id, v.id::text, 'queued', 0, $5, now()
       FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS v(id, product_id, destination_id)`,
      orgId, ids, products, destinations, leaseUntil,
    ),
    db.$executeRawUnsafe(
      `INSERT INTO listings (id, org_id, product_id, destination_account_id, status, updated_at)
       SELECT gen_random_uuid(), $1::uuid, v.product_id, v.destination_id, 'queued', now()
       FROM unnest($2::uuid[], $3::uuid[]) AS v(product_id, destination_id)
       ON CONFLICT (product_id, destination_account_id)
       DO UPDATE SET status = CASE WHEN listings.status = 'publishing' THEN listings.status ELSE 'queued'::"ListingStatus" END, updated_at = now()`,
      orgId, products, destinations,
    ),
  ]);
  return records;
}
