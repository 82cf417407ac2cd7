import type { Db } from "./client.js";
import { isUniqueViolation } from "./client.js";
import type { Prisma } from "./generated/client.js";
import type { ActorType, ProductSource } from "./generated/enums.js";
import { fieldDiff } from "./field-diff.js";
import {
  PRODUCT_FIELDS,
  columnsOf,
  fieldsOf,
  toProductView,
  withStoredDescription,
  type ProductFields,
  type ProductView,
} from "./product-view.js";
import { conflict, notFound } from "./service-error.js";
import { isUuid } from "./ids.js";
import { storedStock } from "./stock-fields.js";
import { planChangeSyncs, type SyncCollector } from "./sync/change-syncs.js";
import { channelReportsView, type ChannelReportView } from "./publishing/channel-reports.js";
import { watchViewOf, type WatchView } from "./source-watch/watch-view.js";

export interface Actor {
  type: ActorType;
  id: string | null;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface ListingView {
  destinationAccountId: string;
  channel: string;
  status: string;
  remoteId: string | null;
  remoteUrl: string | null;
  lastSyncedAt: string | null;
  lastError: string | null;
  syncState: "inSync" | "pending" | "failed";
  syncError: string | null;
  endedReason: string | null;
  channelReports: ChannelReportView[];
}

export type ProductDetail = ProductView & { listings: ListingView[]; watch: WatchView | null };

type Tx = Prisma.TransactionClient;

/** `contains` becomes ILIKE '%term%': escape LIKE's own wildcards so they match literally. */
const likeLiteral = (term: string) => term.replace(/[\\%_]/g, "\\$&");

/**
 * Which of the org's products a list shows: `q` in the title or SKU, and/or exactly this
 * `sourceUrl`.
 */
export interface ProductFilter {
  q?: string;
  sourceUrl?: string;
}

function searchFilter(orgId: string, filter: ProductFilter): Prisma.ProductWhereInput {
  const text = filter.q?.trim();
  const where: Prisma.ProductWhereInput = {
    orgId,
    deletedAt: null,
    ...(filter.sourceUrl ? { sourceUrl: filter.sourceUrl } : {}),
  };
  if (!text) return where;
  const term = likeLiteral(text);
  return {
    ...where,
    OR: [
      { title: { contains: term, mode: "insensitive" } },
      { sku: { contains: term, mode: "insensitive" } },
    ],
  };
}

/** The org's products imported from these pages, by page: the newest when several were. */
export async function productsBySourceUrl(
  db: Db,
  orgId: string,
  urls: string[],
): Promise<Map<string, { productId: string; title: string }>> {
  if (urls.length === 0) return new Map();
  const rows = await db.product.findMany({
    where: { orgId, sourceUrl: { in: urls }, deletedAt: null },
    select: { id: true, title: true, sourceUrl: true },
    orderBy: [{ updatedAt: "asc" }, { id: "asc" }],
  });
  return new Map(rows.map((row) => [row.sourceUrl!, { productId: row.id, title: row.title }]));
}

/** A product's listing on one destination, as the catalog list shows it. */
export interface ListingStatusView {
  destinationAccountId: string;
  channel: string;
  status: string;
}

export type ProductListItem = ProductView & { listings: ListingStatusView[] };

// The listings of exactly the page's products: the page's own filter, order and window as a
// subquery, so this runs beside the page query in the same round trip rather than after it.
// Two texts, not one with `$2 IS NULL OR ...`, so a search keeps its trigram indexes in any plan.
const pageListings = (search: boolean, bySource: boolean) => `
SELECT l.product_id, l.destination_account_id, d.channel::text AS channel, l.status::text AS status
FROM (
  SELECT id FROM products
  WHERE org_id = $1::uuid AND deleted_at IS NULL ${search ? "AND (title ILIKE $4 OR sku ILIKE $4)" : ""} ${bySource ? `AND source_url = $${search ? 5 : 4}` : ""}
  ORDER BY updated_at DESC, id DESC OFFSET $2 LIMIT $3
) p
JOIN listings l ON l.product_id = p.id
JOIN destination_accounts d ON d.id = l.destination_account_id
ORDER BY l.product_id, d.connected_at, d.id`;

/**
 * One page of the org's catalog, newest edits first; `q` matches title or SKU (substring, any
 * case), `sourceUrl` the page a product was imported from (exactly). Each product comes with its
 * listing status per destination: the page, its count and its listings are three queries sent at
 * once.
 */
export async function listProducts(
  db: Db,
  orgId: string,
  query: ProductFilter & { page: number; pageSize: number },
): Promise<Page<ProductListItem>> {
  const where = searchFilter(orgId, query);
  const text = query.q?.trim();
  const offset = (query.page - 1) * query.pageSize;
  const [rows, total, listings] = await Promise.all([
    db.product.findMany({
      where,
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      skip: offset,
      take: query.pageSize,
    }),
    db.product.count({ where }),
    db.$queryRawUnsafe<
      { product_id: string; destination_account_id: string; channel: string; status: string }[]
    >(
      pageListings(Boolean(text), Boolean(query.sourceUrl)),
      orgId,
      offset,
      query.pageSize,
      ...(text ? [`%${likeLiteral(text)}%`] : []),
      ...(query.sourceUrl ? [query.sourceUrl] : []),
    ),
  ]);
  const byProduct = new Map<string, ListingStatusView[]>();
  for (const l of listings) {
    let list = byProduct.get(l.product_id);
    if (!list) byProduct.set(l.product_id, (list = []));
    list.push({
      destinationAccountId: l.destination_account_id,
      channel: l.channel,
      status: l.status,
    });
  }
  return {
    items: rows.map((row) => ({ ...toProductView(row), listings: byProduct.get(row.id) ?? [] })),
    total,
  };
}

export async function getProduct(db: Db, orgId: string, id: string): Promise<ProductDetail> {
  if (!isUuid(id)) throw notFound(`product ${id}`);
  const row = await db.product.findFirst({
    where: { id, orgId, deletedAt: null },
    include: { listings: { include: { destination: { select: { channel: true } } } } },
  });
  if (!row) throw notFound(`product ${id}`);
  const { listings, ...product } = row;
  return {
    ...toProductView(product),
    listings: listings.map((l) => ({
      destinationAccountId: l.destinationAccountId,
      channel: l.destination.channel,
      status: l.status,
      remoteId: l.remoteId,
      remoteUrl: l.remoteUrl,
      lastSyncedAt: l.lastSyncedAt?.toISOString() ?? null,
      lastError: l.lastError,
      syncState: l.syncState,
      syncError: l.syncError,
      endedReason: l.endedReason,
      channelReports: channelReportsView(l.channelReports, l.remoteId),
    })),
    watch: watchViewOf(product),
  };
}

function writeHistory(
  tx: Tx,
  entry: {
    orgId: string;
    productId: string;
    actor: Actor;
    action: "created" | "updated" | "deleted" | "imported";
    changes: object;
  },
) {
  return tx.productHistory.create({
    data: {
      orgId: entry.orgId,
      productId: entry.productId,
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      action: entry.action,
      changes: entry.changes,
    },
  });
}

function skuConflict(error: unknown, sku: string | null | undefined): never {
  if (isUniqueViolation(error))
    throw conflict(`another product in this org already has SKU "${sku}"`);
  throw error;
}

export async function createProduct(
  db: Db,
  orgId: string,
  given: Partial<ProductFields> & { title: string },
  actor: Actor,
  source: ProductSource = "api",
): Promise<ProductView> {
  const fields = storedStock(withStoredDescription(given));
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.product.create({
        data: {
          ...(columnsOf(fields) as Prisma.ProductUncheckedCreateInput),
          orgId,
          title: fields.title,
          source,
        },
      });
      const created = fieldsOf(row);
      await writeHistory(tx, {
        orgId,
        productId: row.id,
        actor,
        action: "created",
        changes: fieldDiff({}, created),
      });
      return toProductView(row);
    });
  } catch (error) {
    skuConflict(error, fields.sku);
  }
}

/**
 * Applies `patch` (its description in the stored form, the stock rule applied to the result, so
 * a quantity change can change the availability too) and writes one history entry with the
 * field diff. A patch that changes nothing writes nothing. `expectedVersion`, when given, must
 * match (else 409), so that two editors cannot silently overwrite each other.
 */
export async function updateProduct(
  db: Db,
  orgId: string,
  id: string,
  given: Partial<ProductFields>,
  actor: Actor,
  expectedVersion?: number,
  /** Collects the automatic syncs the change calls for (enqueue them after this returns). */
  sync?: SyncCollector,
): Promise<ProductView> {
  if (!isUuid(id)) throw notFound(`product ${id}`);
  const patch = withStoredDescription(given);
  try {
    return await db.$transaction(async (tx) => {
      const current = await tx.product.findFirst({ where: { id, orgId, deletedAt: null } });
      if (!current) throw notFound(`product ${id}`);
      if (expectedVersion !== undefined && expectedVersion !== current.version) {
        throw conflict(
          `product ${id} is at version ${current.version}, not ${expectedVersion}: reload it and edit again`,
        );
      }
      const before = fieldsOf(current);
      const next = storedStock({ ...before, ...patch });
      const changes = fieldDiff(before, next);
      if (Object.keys(changes).length === 0) return toProductView(current);
      const changed = Object.fromEntries(
        Object.keys(changes).map((k) => [k, next[k as keyof ProductFields]]),
      );
      const { count } = await tx.product.updateMany({
        where: { id, orgId, version: current.version },
        data: { ...columnsOf(changed), version: { increment: 1 }, updatedAt: new Date() },
      });
      if (count === 0)
        throw conflict(
          `product ${id} was changed by someone else meanwhile: reload it and edit again`,
        );
      await writeHistory(tx, { orgId, productId: id, actor, action: "updated", changes });
      if (sync)
        await planChangeSyncs(tx, orgId, [{ productId: id, fields: Object.keys(changes) }], sync);
      return toProductView(await tx.product.findUniqueOrThrow({ where: { id } }));
    });
  } catch (error) {
    skuConflict(error, patch.sku);
  }
}

// A deletion records every field's last value as `from`, so the audit shows what was removed.
const CLEARED = Object.fromEntries(
  PRODUCT_FIELDS.map((field) => [field, null]),
) as Partial<ProductFields>;

/** A listing still live on its store, as a deletion names it. */
export interface LiveListing {
  destinationAccountId: string;
  channel: string;
  remoteId: string;
}

export type ProductDeletion =
  | {
      /** The row is gone (no live listing, or forced): `leftListings` are still on their stores. */
      removed: true;
      leftListings: LiveListing[];
    }
  | {
      /** Hidden from the catalog; removed once the ends of `endingListings` are done. */
      removed: false;
      endingListings: LiveListing[];
    };

const LIVE_LISTINGS = `
SELECT l.destination_account_id AS "destinationAccountId", d.channel::text AS channel, l.remote_id AS "remoteId"
FROM listings l JOIN destination_accounts d ON d.id = l.destination_account_id
WHERE l.product_id = $1::uuid AND l.remote_id IS NOT NULL AND l.status <> 'ended'
ORDER BY d.connected_at, d.id`;

/**
 * Removes the product from the catalog; its history stays readable. A product with listings live
 * on stores is not removed at once: it is hidden (`deletedAt`, its SKU moved to `deletedSku` so
 * that a new product may take it) and its row, listings and remote ids kept until the caller's
 * ends (see `requestListingEnds`) are done. `force` removes it at once all the same and names
 * the listings left on the stores. The row is locked first: of concurrent deletes of a product
 * without live listings one removes it and writes the history entry, the others find nothing (a
 * 404, like a delete after it); a product already hidden answers as hidden again.
 */
export async function deleteProduct(
  db: Db,
  orgId: string,
  id: string,
  actor: Actor,
  { force = false }: { force?: boolean } = {},
): Promise<ProductDeletion> {
  if (!isUuid(id)) throw notFound(`product ${id}`);
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM products WHERE id = $1::uuid AND org_id = $2::uuid FOR UPDATE`,
      id,
      orgId,
    );
    if (!locked) throw notFound(`product ${id}`);
    const current = await tx.product.findUniqueOrThrow({ where: { id } });
    const live = await tx.$queryRawUnsafe<LiveListing[]>(LIVE_LISTINGS, id);
    const history = () =>
      writeHistory(tx, {
        orgId,
        productId: id,
        actor,
        action: "deleted",
        changes: fieldDiff(fieldsOf(current), CLEARED),
      });
    if (live.length === 0 || force) {
      await tx.product.delete({ where: { id } });
      // A product hidden earlier had its entry written then.
      if (!current.deletedAt) await history();
      return { removed: true, leftListings: live };
    }
    if (!current.deletedAt) {
      await tx.product.update({
        where: { id },
        data: { deletedAt: new Date(), deletedSku: current.sku, sku: null },
      });
      await history();
    }
    return { removed: false, endingListings: live };
  });
}
