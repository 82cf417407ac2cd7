import { randomUUID } from "node:crypto";
import type { Db } from "../client.js";
import type { Channel } from "../generated/enums.js";
import { isUuid } from "../ids.js";
import { invalid } from "../service-error.js";
import { lockInIdOrder } from "../row-locks.js";
import { retryOnConflict } from "../transaction-retry.js";

/** One product x destination publish, as recorded before it is enqueued. */
export interface PublishJobRecord {
  syncLogId: string;
  jobId: string;
  orgId: string;
  /** The publish run the record belongs to (null for automatic syncs and ends: no run asked). */
  runId: string | null;
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
export async function checkPublishTargets(
  db: Db,
  orgId: string,
  productIds: string[],
  destinationIds: string[],
): Promise<PublishTargets> {
  const products = [...new Set(productIds)];
  const destinations = [...new Set(destinationIds)];
  const [foundProducts, foundDestinations] = await Promise.all([
    db.product.findMany({
      where: { orgId, id: { in: products.filter(isUuid) }, deletedAt: null },
      select: { id: true },
    }),
    db.destinationAccount.findMany({
      where: { orgId, id: { in: destinations.filter(isUuid) }, disconnectedAt: null },
      select: { id: true, channel: true },
    }),
  ]);
  const knownProducts = new Set(foundProducts.map((p) => p.id));
  const unknownProducts = products.filter((id) => !knownProducts.has(id));
  const knownDestinations = new Map(foundDestinations.map((d) => [d.id, d]));
  const unknownDestinations = destinations.filter((id) => !knownDestinations.has(id));
  const problems = [
    unknownProducts.length > 0 ? `unknown product ids: ${listIds(unknownProducts)}` : null,
    unknownDestinations.length > 0
      ? `unknown or disconnected destination ids: ${listIds(unknownDestinations)}`
      : null,
  ].filter(Boolean);
  if (problems.length > 0) throw invalid(problems.join("; "));
  return {
    productIds: products,
    destinations: destinations.map((id) => knownDestinations.get(id)!),
  };
}

/**
 * Who asked for a run: the user of a session, an API key, or the service itself (benches, scripts).
 */
export interface RunActor {
  type: "user" | "apiKey" | "system";
  id: string | null;
}

const SYSTEM_ACTOR: RunActor = { type: "system", id: null };

/**
 * Writes one `queued` sync log per product x destination and marks their listings `queued`,
 * in one transaction, before anything is enqueued: PostgreSQL is the record the recovery
 * re-enqueues from. The job id is the sync log id, so enqueueing it twice is harmless. The
 * request is one publish run (created in the same transaction), which every record names.
 */
export async function recordPublishRequest(
  db: Db,
  orgId: string,
  targets: {
    productIds: string[];
    destinationIds: string[];
    /** Pairs left out of the run (those a check found would fail); not all of them. */
    skip?: { productId: string; destinationAccountId: string }[];
  },
  leaseMs: number,
  actor: RunActor = SYSTEM_ACTOR,
): Promise<PublishJobRecord[]> {
  const runId = randomUUID();
  const skipped = new Set(
    (targets.skip ?? []).map((s) => `${s.productId}|${s.destinationAccountId}`),
  );
  const cells: { productId: string; destinationAccountId: string }[] = [];
  for (const destinationAccountId of targets.destinationIds) {
    for (const productId of targets.productIds)
      if (!skipped.has(`${productId}|${destinationAccountId}`))
        cells.push({ productId, destinationAccountId });
  }
  if (cells.length === 0) throw invalid("skip leaves nothing to publish: every pair is left out");
  // A product or destination every pair of which is left out is not part of the run.
  const productIds = targets.productIds.filter((id) => cells.some((c) => c.productId === id));
  const destinationIds = targets.destinationIds.filter((id) =>
    cells.some((c) => c.destinationAccountId === id),
  );
  const records = newRecords(orgId, runId, cells);
  // Publishes of overlapping products meet on their listings: see recordStatements.
  await retryOnConflict(() =>
    db.$transaction([
      // The run keeps each product's title and SKU as they were, in request order.
      db.$executeRawUnsafe(
        `INSERT INTO publish_runs (id, org_id, actor_type, actor_id, products, destination_ids, created_at)
       SELECT $1::uuid, $2::uuid, $3::"ActorType", $4,
         coalesce(jsonb_agg(jsonb_build_object('id', v.id, 'title', coalesce(p.title, ''), 'sku', p.sku) ORDER BY v.n), '[]'::jsonb),
         $6::uuid[], now()
       FROM unnest($5::uuid[]) WITH ORDINALITY AS v(id, n) LEFT JOIN products p ON p.id = v.id AND p.org_id = $2::uuid`,
        runId,
        orgId,
        actor.type,
        actor.id,
        productIds,
        destinationIds,
      ),
      ...recordStatements(db, orgId, runId, records, leaseMs),
    ]),
  );
  return records;
}

export function newRecords(
  orgId: string,
  runId: string | null,
  cells: { productId: string; destinationAccountId: string }[],
): PublishJobRecord[] {
  return cells.map(({ productId, destinationAccountId }) => {
    const id = randomUUID();
    return { syncLogId: id, jobId: id, orgId, runId, productId, destinationAccountId };
  });
}

type Executor = Pick<Db, "$executeRawUnsafe">;

/**
 * The sync logs of `records` (queued, leased) and their listings marked `queued`: run them in one
 * transaction. Row locks follow the one order (ARCHITECTURE.md, "Row locks"): the new sync logs
 * lock nothing another transaction holds; then the listings that exist are locked by id, and the
 * new ones inserted in (product, destination) order, so publishes of the same products in any
 * order queue for them instead of deadlocking.
 */
export function recordStatements(
  db: Executor,
  orgId: string,
  runId: string,
  records: PublishJobRecord[],
  leaseMs: number,
) {
  const ids = records.map((r) => r.syncLogId);
  const cells = records
    .map((r) => `${r.productId} ${r.destinationAccountId}`)
    .sort()
    .map((cell) => cell.split(" "));
  const products = cells.map(([productId]) => productId);
  const destinations = cells.map(([, destinationId]) => destinationId);
  const leaseUntil = new Date(Date.now() + leaseMs);
  return [
    db.$executeRawUnsafe(
      `INSERT INTO sync_logs (id, org_id, product_id, destination_account_id, job_id, status, attempts, lease_until, created_at, run_id)
       SELECT v.id, $1::uuid, v.product_id, v.destination_id, v.id::text, 'queued', 0, $5, now(), $6::uuid
       FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS v(id, product_id, destination_id)`,
      orgId,
      ids,
      records.map((r) => r.productId),
      records.map((r) => r.destinationAccountId),
      leaseUntil,
      runId,
    ),
    db.$executeRawUnsafe(
      lockInIdOrder(
        "listings",
        "(product_id, destination_account_id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))",
      ),
      products,
      destinations,
    ),
    db.$executeRawUnsafe(
      `INSERT INTO listings (id, org_id, product_id, destination_account_id, status, updated_at)
       SELECT gen_random_uuid(), $1::uuid, v.product_id, v.destination_id, 'queued', now()
       FROM unnest($2::uuid[], $3::uuid[]) AS v(product_id, destination_id)
       ON CONFLICT (product_id, destination_account_id)
       DO UPDATE SET status = CASE WHEN listings.status = 'publishing' THEN listings.status ELSE 'queued'::"ListingStatus" END, updated_at = now()`,
      orgId,
      products,
      destinations,
    ),
  ];
}
