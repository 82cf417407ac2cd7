import type { Db } from "../client.js";
import type { WatchSchedule } from "../generated/enums.js";
import { isUuid } from "../ids.js";
import { invalid, notFound } from "../service-error.js";
import { watchViewOf, type WatchView } from "./watch-view.js";

/** The product's watch, or 404 (also for a product being deleted). */
async function watchedRow(db: Db, orgId: string, id: string) {
  if (!isUuid(id)) throw notFound(`product ${id}`);
  const row = await db.product.findFirst({ where: { id, orgId, deletedAt: null } });
  if (!row) throw notFound(`product ${id}`);
  return row;
}

/**
 * Sets (or, with null, ends) the product's watch in PostgreSQL, the record the schedulers are
 * made from. Only a product that came from a page can be watched: one without `sourceUrl` is 422.
 */
export async function setProductWatch(
  db: Db,
  orgId: string,
  id: string,
  schedule: WatchSchedule | null,
): Promise<WatchView | null> {
  const row = await watchedRow(db, orgId, id);
  if (schedule !== null && !row.sourceUrl)
    throw invalid(
      `product ${id} has no sourceUrl: only a product imported from a page can be watched`,
    );
  const updated = await db.product.update({
    where: { id },
    data: {
      watchSchedule: schedule,
      ...(schedule === null ? { watchNextCheckAt: null } : {}),
    },
  });
  return watchViewOf(updated);
}

/** Records when the product's next check is due, as its scheduler says. */
export async function recordNextSourceCheck(
  db: Db,
  id: string,
  nextCheckAt: Date | null,
): Promise<void> {
  await db.product.updateMany({
    where: { id, watchSchedule: { not: null } },
    data: { watchNextCheckAt: nextCheckAt },
  });
}

/** 404 unless the product exists; 422 when it has no page to check. */
export async function checkableProduct(db: Db, orgId: string, id: string): Promise<void> {
  const row = await watchedRow(db, orgId, id);
  if (!row.sourceUrl) throw invalid(`product ${id} has no sourceUrl: there is no page to check`);
}

/** Watched products, in id order, a page after `afterId`: what the schedulers are made from. */
export async function listWatchedProducts(
  db: Db,
  afterId: string | null,
  take: number,
): Promise<{ id: string; watchSchedule: WatchSchedule }[]> {
  const rows = await db.product.findMany({
    where: {
      watchSchedule: { not: null },
      deletedAt: null,
      sourceUrl: { not: null },
      ...(afterId ? { id: { gt: afterId } } : {}),
    },
    select: { id: true, watchSchedule: true },
    orderBy: { id: "asc" },
    take,
  });
  return rows.map((r) => ({ id: r.id, watchSchedule: r.watchSchedule! }));
}

/** Whether the product still exists and is watched (a scheduler of one that is not is removed). */
export async function isWatched(db: Db, id: string): Promise<boolean> {
  const row = await db.product.findFirst({
    where: { id, deletedAt: null, watchSchedule: { not: null } },
    select: { id: true },
  });
  return row !== null;
}

/**
 * A stored URL import that asked for a watch: the products it stored (those with a page) get its
 * schedule. Returns them, for their schedulers. Nothing when the import asked for none.
 */
export async function watchImportedProducts(
  db: Db,
  importId: string,
): Promise<{ id: string; watchSchedule: WatchSchedule }[]> {
  const rows = await db.$queryRaw<{ id: string; watch_schedule: WatchSchedule }[]>`
    UPDATE products AS p SET watch_schedule = i.watch_schedule
    FROM imports AS i, import_rows AS r
    WHERE i.id = ${importId}::uuid AND i.watch_schedule IS NOT NULL
      AND r.import_id = i.id AND r.stored_product_id = p.id
      AND p.source_url IS NOT NULL AND p.deleted_at IS NULL
    RETURNING p.id, p.watch_schedule`;
  return [...new Map(rows.map((r) => [r.id, r.watch_schedule])).entries()].map(
    ([id, watchSchedule]) => ({ id, watchSchedule }),
  );
}

/** Watches these products of the org on `schedule` (those with a page); returns them. */
export async function watchProducts(
  db: Db,
  orgId: string,
  ids: string[],
  schedule: WatchSchedule,
): Promise<{ id: string; watchSchedule: WatchSchedule }[]> {
  if (ids.length === 0) return [];
  const rows = await db.product.updateManyAndReturn({
    where: { orgId, id: { in: ids }, sourceUrl: { not: null }, deletedAt: null },
    data: { watchSchedule: schedule },
    select: { id: true },
  });
  return rows.map((r) => ({ id: r.id, watchSchedule: schedule }));
}
