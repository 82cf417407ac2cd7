import type { Db } from "./client.js";
import type { FieldChanges } from "./field-diff.js";
import { withStoredDescriptions } from "./product-view.js";
import type { Page } from "./products.js";
import { notFound } from "./service-error.js";
import { isUuid } from "./ids.js";

export interface HistoryEntryView {
  id: string;
  at: string;
  actor: { type: string; id: string | null };
  action: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

/**
 * A product's edit history, newest first. It outlives the product, so a deleted product's stays
 * readable.
 */
export async function listHistory(
  db: Db,
  orgId: string,
  productId: string,
  query: { page: number; pageSize: number },
): Promise<Page<HistoryEntryView>> {
  if (!isUuid(productId)) throw notFound(`product ${productId}`);
  const where = { orgId, productId };
  const [rows, total] = await Promise.all([
    db.productHistory.findMany({
      where,
      orderBy: [{ at: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db.productHistory.count({ where }),
  ]);
  if (total === 0) throw notFound(`product ${productId}`);
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: { type: r.actorType, id: r.actorId },
      action: r.action,
      // Entries from before descriptions had one form hold them as given: read in that form.
      changes: withStoredDescriptions(r.changes as FieldChanges),
    })),
    total,
  };
}
