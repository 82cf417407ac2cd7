import type { Money } from "@catalog/values";
import type { Db } from "../client.js";
import { fieldDiff, type FieldChanges } from "../field-diff.js";
import type { Prisma } from "../generated/client.js";
import { columnsOf, fieldsOf, formatAmount } from "../product-view.js";
import type { PublishJobRecord } from "../publishing/publish-requests.js";
import { planListingSyncs } from "../sync/listing-sync.js";

/**
 * Who a source re-check's history entry names: the service (`system`) with this id, so the
 * history says "source re-check" rather than a user.
 */
export const SOURCE_RECHECK_ACTOR = { type: "system", id: "source-recheck" } as const;

/** What fetching a watched product's page again found. */
export type SourceCheckOutcome =
  /** The page shows the product: what it says now (null or absent: the page does not say). */
  | { kind: "found"; price: Money | null; availability: string | null; quantity?: number | null }
  /** The page is gone (404/410) or shows no product any more: out of stock. */
  | { kind: "gone"; result: string }
  /** The page could not be read this time (5xx, timeout, refused): nothing changes. */
  | { kind: "failed"; result: string };

export interface SourceRecheckResult {
  orgId: string;
  changes: FieldChanges;
  /** What `watchLastResult` now says. */
  result: string;
  /** The listing updates the change calls for, to be enqueued on the publish queues. */
  syncs: PublishJobRecord[];
}

/** The product a check is for: its page, and whether it is still watched. */
export async function sourceCheckTarget(
  db: Db,
  id: string,
): Promise<{ orgId: string; sourceUrl: string; watched: boolean } | null> {
  const row = await db.product.findFirst({
    where: { id, deletedAt: null },
    select: { orgId: true, sourceUrl: true, watchSchedule: true },
  });
  if (!row?.sourceUrl) return null;
  return { orgId: row.orgId, sourceUrl: row.sourceUrl, watched: row.watchSchedule !== null };
}

type Watched = { price: Money | null; availability: string | null; quantity: number | null };

/** The watched fields the outcome sets (a field the page does not state is left as it is). */
function observed(outcome: SourceCheckOutcome): Partial<Watched> {
  if (outcome.kind === "gone") return { availability: "OutOfStock", quantity: 0 };
  if (outcome.kind === "failed") return {};
  const next: Partial<Watched> = {};
  if (outcome.price)
    next.price = { amount: formatAmount(outcome.price.amount), currency: outcome.price.currency };
  if (outcome.availability) next.availability = outcome.availability;
  if (outcome.quantity !== undefined && outcome.quantity !== null) next.quantity = outcome.quantity;
  return next;
}

const shown = (field: string, value: unknown): string => {
  if (value === null || value === undefined) return "none";
  if (field === "price") {
    const money = value as Money;
    return `${money.amount} ${money.currency}`;
  }
  return typeof value === "string" || typeof value === "number"
    ? String(value)
    : JSON.stringify(value);
};

function describe(outcome: SourceCheckOutcome, changes: FieldChanges): string {
  const changed = Object.entries(changes)
    .map(([field, { from, to }]) => `${field} ${shown(field, from)} -> ${shown(field, to)}`)
    .join("; ");
  if (outcome.kind === "failed") return `${outcome.result}; nothing changed`;
  if (outcome.kind === "gone") return changed ? `${outcome.result}: ${changed}` : outcome.result;
  return changed || "no change";
}

/**
 * Applies a re-check's outcome in one transaction, under the product's row lock: a new price,
 * availability or quantity goes through the same write as an edit (version bump, one `updated`
 * history entry with the field diff, by SOURCE_RECHECK_ACTOR) and plans the listing syncs it
 * calls for; every outcome records the check (`watchLastCheckedAt`, `watchNextCheckAt`,
 * `watchLastResult`, and `watchLastChangedAt` when something changed). Null when the product is
 * gone.
 */
export async function applySourceRecheck(
  db: Db,
  check: { productId: string; outcome: SourceCheckOutcome; nextCheckAt: Date | null },
): Promise<SourceRecheckResult | null> {
  const { productId, outcome } = check;
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM products WHERE id = ${productId}::uuid FOR UPDATE`;
    const row = await tx.product.findFirst({ where: { id: productId, deletedAt: null } });
    if (!row) return null;
    const now = new Date();
    const current: Watched = {
      price: fieldsOf(row).price,
      availability: row.availability,
      quantity: row.quantity,
    };
    const changes = fieldDiff(current, observed(outcome));
    const result = describe(outcome, changes);
    const data: Prisma.ProductUncheckedUpdateInput = {
      watchLastCheckedAt: now,
      watchLastResult: result,
      ...(row.watchSchedule ? { watchNextCheckAt: check.nextCheckAt } : {}),
    };
    let syncs: PublishJobRecord[] = [];
    if (Object.keys(changes).length > 0) {
      const { quantity, ...fields } = Object.fromEntries(
        Object.entries(changes).map(([field, { to }]) => [field, to]),
      ) as Partial<Watched>;
      Object.assign(data, columnsOf(fields), {
        ...(quantity !== undefined ? { quantity } : {}),
        version: { increment: 1 },
        updatedAt: now,
        watchLastChangedAt: now,
      });
      await tx.productHistory.create({
        data: {
          orgId: row.orgId,
          productId,
          actorType: SOURCE_RECHECK_ACTOR.type,
          actorId: SOURCE_RECHECK_ACTOR.id,
          action: "updated",
          changes: changes as Prisma.InputJsonValue,
        },
      });
    }
    await tx.product.update({ where: { id: productId }, data });
    if (Object.keys(changes).length > 0)
      syncs = await planListingSyncs(tx, {
        orgId: row.orgId,
        productIds: [productId],
        trigger: `${Object.keys(changes).join(" and ")} changed by source re-check`,
      });
    return { orgId: row.orgId, changes, result, syncs };
  });
}
