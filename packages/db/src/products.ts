import { titleAndSkuTooLong } from "@catalog/values";
import type { Db } from "./client.js";
import { cappedCount, type CappedCount } from "./capped-count.js";
import { isUniqueViolation } from "./client.js";
import type { Prisma } from "./generated/client.js";
import type { ActorType, ProductSource } from "./generated/enums.js";
import { fieldDiff } from "./field-diff.js";
import {
  PRODUCT_FIELDS,
  VIEW_COLUMNS,
  columnsOf,
  fieldsOf,
  productViewOf,
  toProductView,
  withStoredDescription,
  type ProductViewRow,
  type ProductFields,
  type ProductView,
} from "./product-view.js";
import { conflict, invalid, notFound } from "./service-error.js";
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

/** A listing state a catalog list can be narrowed to; `notListed`: not live nor on its way. */
export const LISTING_FILTERS = [
  "queued",
  "publishing",
  "published",
  "failed",
  "ending",
  "ended",
  "notListed",
] as const;
export type ListingFilter = (typeof LISTING_FILTERS)[number];

/** Stock a catalog list can be narrowed to: none, 1 to LOW_STOCK units, 1 or more, unknown. */
export const STOCK_FILTERS = ["out", "low", "in", "unknown"] as const;
export type StockFilter = (typeof STOCK_FILTERS)[number];
export const LOW_STOCK = 5;

/** The orders a catalog list can have: newest edit first (the default), title A-Z, fewest units. */
export const LIST_SORTS = ["updated", "title", "stock"] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/**
 * Which of the org's products a list shows: `q` in the title or SKU, exactly this `sourceUrl`,
 * a listing in this state (on this destination, or on any), this availability, this stock.
 */
export interface ProductFilter {
  q?: string;
  sourceUrl?: string;
  listing?: ListingFilter;
  destinationAccountId?: string;
  availability?: string;
  stock?: StockFilter;
}

const STOCK_SQL: Record<StockFilter, string> = {
  out: "quantity = 0",
  low: `quantity BETWEEN 1 AND ${LOW_STOCK}`,
  in: "quantity >= 1",
  unknown: "quantity IS NULL",
};

/** States of a listing that is live or on its way there (what `notListed` excludes). */
const LISTED = `('queued', 'publishing', 'published', 'ending')`;

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

/** A place in the catalog's order (newest edit first): the product there and its edit time. */
export interface ListPosition {
  updatedAt: Date;
  id: string;
}

/**
 * Which page of a list: the `page`-th window of `pageSize` (an offset), or, when `seek` is given,
 * the `pageSize` products just after (`direction` "next": older) or just before ("previous":
 * newer) a position a page ended or began at. A seek costs the same at any depth, and a page
 * reached by seeking neither repeats nor skips a product when edits move others meanwhile.
 */
export interface ProductListQuery extends ProductFilter {
  /** The order (default `updated`); a seek is only for the default order. */
  sort?: ListSort;
  page: number;
  pageSize: number;
  seek?: { direction: "next" | "previous"; from: ListPosition };
  /** The number of matching products when the caller knows it (or is finding it out). */
  total?: CappedCount | Promise<CappedCount>;
}

export interface ProductListPage extends Page<ProductListItem> {
  /** false when `total` is a search's lower bound (see SEARCH_COUNT_LIMIT). */
  totalExact: boolean;
  /** The positions of the page's first and last products (null for an empty page). */
  first: ListPosition | null;
  last: ListPosition | null;
}

/**
 * How a search's `q` is matched: `found` by the trigram indexes on title and SKU (a rare term: its
 * few matches are collected), or `walked` through the catalog's order with the test on each row (a
 * common term: its page's rows come early). A walked test reads `search_text`, which the database
 * keeps as lower(title), U+0001, lower(sku): one column lowercased once when written, where ILIKE
 * on title and SKU lowercased both on every row walked (at a million products the 34,000 rows
 * walked for "adju" took 15 against 46 ms), and which the trigram indexes cannot answer. They must
 * not: the planner's guess of how many rows a substring matches is by its length, not its words,
 * so for a common phrase it would collect and sort every match (150 ms at a million products for
 * "bamboo chair") instead of walking the order, which the caller knows is right. In the default
 * order (newest edit first) the walk reads the list index alone: `search_text` and `quantity` are
 * included in it. A term holding U+0001 could match across the two fields in `search_text`: it is
 * walked testing title and SKU one by one. (One trigram index on `search_text` for the found way
 * was tried: it mixes the two fields' trigrams, so "SKU-887" gave twice as many candidates to
 * check, each a visit to the table.)
 */
type SearchWay = "found" | "walked";

/**
 * The WHERE of a list (org, not deleted, `q` in title or SKU, `sourceUrl`) as SQL with its
 * parameters from `$1`. Two texts, not one with `$n IS NULL OR ...`, so a search keeps its
 * trigram indexes in any plan where it should (see SearchWay); both ways take the same parameters.
 * `searchText` is the walked test on `search_text` alone, for a term that can use it.
 */
function listWhere(
  orgId: string,
  filter: ProductFilter,
  way: SearchWay = "found",
): { sql: string; params: unknown[]; searchText?: string } {
  const params: unknown[] = [orgId];
  const param = (value: unknown) => `$${params.push(value)}`;
  let sql = "org_id = $1::uuid AND deleted_at IS NULL";
  let searchText: string | undefined;
  const text = filter.q?.trim();
  if (text) {
    const like = param(`%${likeLiteral(text)}%`);
    if (!text.includes("\u0001")) searchText = `search_text LIKE lower(${like})`;
    sql +=
      way === "found"
        ? ` AND (title ILIKE ${like} OR sku ILIKE ${like})`
        : ` AND ${searchText ?? `(lower(title) LIKE lower(${like}) OR lower(sku) LIKE lower(${like}))`}`;
  }
  if (filter.sourceUrl) sql += ` AND source_url = ${param(filter.sourceUrl)}`;
  if (filter.availability) sql += ` AND availability = ${param(filter.availability)}`;
  if (filter.stock) sql += ` AND ${STOCK_SQL[filter.stock]}`;
  if (filter.listing || filter.destinationAccountId) {
    // A semi-join on listings (indexed by org, state and destination): the product has a listing
    // there in that state, or, for notListed, none that is live or on its way. At 100k products
    // with 100k listings, "failed on one store" is an index-only read of its failed listings.
    const on = filter.destinationAccountId
      ? ` AND l.destination_account_id = ${param(filter.destinationAccountId)}::uuid`
      : "";
    const listing = filter.listing;
    const state =
      listing === "notListed"
        ? ` AND l.status IN ${LISTED}`
        : listing
          ? ` AND l.status = ${param(listing)}::"ListingStatus"`
          : "";
    sql += ` AND ${listing === "notListed" ? "NOT " : ""}EXISTS (SELECT 1 FROM listings l
      WHERE l.product_id = products.id AND l.org_id = $1::uuid${on}${state})`;
  }
  return { sql, params, ...(searchText ? { searchText } : {}) };
}

/**
 * Where and in which order one page is taken from rows with `id`, `updated_at`, `title` and
 * `quantity` (the orders' columns): an offset, or a
 * seek from a position (`seek` below adds to the WHERE, `tail` orders and limits). Parameters are
 * pushed onto `params`.
 */
function pageWindow(query: ProductListQuery, params: unknown[]): { seek: string; tail: string } {
  const { seek } = query;
  if (!seek) {
    params.push((query.page - 1) * query.pageSize, query.pageSize);
    return {
      seek: "",
      tail: `ORDER BY ${orderBy(query.sort, "")} OFFSET $${params.length - 1} LIMIT $${params.length}`,
    };
  }
  params.push(seek.from.updatedAt, seek.from.id, query.pageSize);
  const at = `($${params.length - 2}::timestamp(3), $${params.length - 1}::uuid)`;
  return seek.direction === "next"
    ? {
        seek: ` AND (updated_at, id) < ${at}`,
        tail: `ORDER BY updated_at DESC, id DESC LIMIT $${params.length}`,
      }
    : {
        seek: ` AND (updated_at, id) > ${at}`,
        tail: `ORDER BY updated_at ASC, id ASC LIMIT $${params.length}`,
      };
}

/**
 * The query of one page's ids, in any order (the caller orders), walking the catalog's order: an
 * offset walks the (org, updated_at, id, deleted_at) index without reading the table
 * (`deleted_at` is in it for that); a seek starts in that index at the position.
 */
function pageIdsQuery(orgId: string, query: ProductListQuery): { sql: string; params: unknown[] } {
  const { sql, params } = listWhere(orgId, query, "walked");
  const window = pageWindow(query, params);
  return { sql: `SELECT id FROM products WHERE ${sql}${window.seek} ${window.tail}`, params };
}

/**
 * A search's page ids and its capped count (see SEARCH_COUNT_LIMIT) from one scan of its
 * matches. The matches are collected up to one past the count's reach (`m`, by the trigram
 * indexes for a rare term); when they all fit, the page is sorted out of them; when they do not,
 * the term is common and the page walks the catalog's order, finding its rows early (SearchWay).
 * Walking the order for a rare term would read the whole catalog (the planner cannot tell a rare
 * substring from a common one: 1 s at 100,000 products for a SKU), and sorting every match of a
 * common one would read them all. In the default order a term whose walk looks the cheaper way
 * (commonMatches) is walked first, and found only if the walk does not prove it common.
 */
function searchIdsQuery(
  orgId: string,
  query: ProductListQuery,
): { sql: string; params: unknown[]; upTo: number } {
  const { sql, params, searchText } = listWhere(orgId, query);
  // The same parameters, so the walked test can share them.
  const walked = listWhere(orgId, query, "walked").sql;
  const start = searchCountStart((query.page - 1) * query.pageSize);
  const upTo = start + SEARCH_COUNT_LIMIT;
  params.push(upTo + 1);
  const reach = `$${params.length}::int`;
  const common =
    start === 0 && searchText && commonWalkable(query) ? commonMatches(searchText, reach) : null;
  // Whether the walk proved the term common (`false` when there is no walk, which PostgreSQL folds).
  const yes = common ? "(SELECT yes FROM common)" : "false";
  const window = pageWindow(query, params);
  const found = `SELECT id, updated_at, title, quantity FROM products WHERE ${sql}`;
  return {
    sql: `WITH ${
      common
        ? `${common},
      m AS MATERIALIZED (
        (SELECT id, updated_at, NULL::text AS title, quantity FROM w WHERE ${yes})
        UNION ALL
        (${found} AND NOT ${yes} LIMIT ${reach})),`
        : `m AS MATERIALIZED (${found} LIMIT ${reach}),`
    }
      n AS (SELECT count(*)::int AS n FROM m),
      page AS (
        (SELECT id FROM m WHERE ((SELECT n FROM n) < ${reach} OR ${yes})${window.seek} ${window.tail})
        UNION ALL
        (SELECT id FROM products WHERE ${walked} AND (SELECT n FROM n) >= ${reach} AND NOT ${yes}${window.seek}
          ${window.tail}))`,
    params,
    upTo,
  };
}

/** Newest products a search's first pages read to judge whether its term is common. */
const PROBE_ROWS = 2_000;
/** Products a term that looks common is walked through before it is found the other way. */
const WALK_ROWS = 50_000;
/**
 * The cost model that chooses between walking and collecting, in walked rows (about 0.35 µs
 * each, index only): collecting a term's matches by the trigram indexes costs about 1.4 walked
 * rows per match in the catalog, plus about 10,000 (measured at 100,000 and 1,000,000 products,
 * single words and pairs, 2026-11-29).
 */
const ROWS_PER_COLLECTED_MATCH = 1.4;
const ROWS_TO_START_COLLECTING = 10_000;

/** A search commonMatches can judge: the default order, and no filter but `q`. */
const commonWalkable = (query: ProductListQuery) =>
  (query.sort ?? "updated") === "updated" &&
  !query.sourceUrl &&
  !query.listing &&
  !query.destinationAccountId &&
  !query.availability &&
  !query.stock;

/**
 * CTEs (`w`, `common`) that walk a common term's first matches in the catalog's order, reading
 * the list index alone, when that is cheaper than collecting them by the trigram indexes. The
 * newest PROBE_ROWS products are read first (about 2 ms): their share of matches foretells both
 * the rows a walk reads to reach `reach` matches, and the matches collecting would visit (that
 * share of the catalog, whose size PostgreSQL's statistics give; for an org smaller than the
 * table the walk is bounded by the org, so overrating it costs little). The term is walked when
 * the walk is the cheaper and should end within WALK_ROWS, and is common when `reach` matches come
 * (`common.yes`); otherwise (a rare term, one common only among the newest products, or a mid
 * one in a small catalog) the trigram indexes find it. At 1,000,000 products "mustard" (4% of
 * titles) walks in 10 ms and collects in 26; at 100,000, "walnut" (3%) walks in 11 ms and
 * collects in 4.
 */
function commonMatches(test: string, reach: string): string {
  const newest = (rows: number) =>
    `SELECT id, updated_at, quantity, search_text FROM products
      WHERE org_id = $1::uuid AND deleted_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT ${rows}`;
  const share = `(nullif(count(*), 0)::float8 / ${PROBE_ROWS})`;
  const catalog = `(SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = 'products'::regclass)`;
  return `probe AS (SELECT ${reach} / ${share} AS walked, ${share} * ${catalog} AS collected
        FROM (${newest(PROBE_ROWS)}) s WHERE ${test}),
      w AS MATERIALIZED (SELECT id, updated_at, quantity FROM (${newest(WALK_ROWS)}) s
        WHERE ${test} AND (SELECT walked <= ${WALK_ROWS}
          AND walked < ${ROWS_PER_COLLECTED_MATCH} * collected + ${ROWS_TO_START_COLLECTING} FROM probe)
        LIMIT ${reach}),
      common AS (SELECT count(*) >= ${reach} AS yes FROM w)`;
}

/**
 * A product row as Prisma reads it (the columns toProductView uses), with its listings' status per
 * destination (in the order destinations were connected), for the products in `page`.
 */
const PAGE_COLUMNS = `${VIEW_COLUMNS},
    coalesce((SELECT json_agg(json_build_object('destinationAccountId', l.destination_account_id,
        'channel', d.channel::text, 'status', l.status::text) ORDER BY d.connected_at, d.name, d.id)
      FROM listings l JOIN destination_accounts d ON d.id = l.destination_account_id
      WHERE l.product_id = p.id), '[]') AS listings`;

/** A list's ORDER BY, its columns prefixed by `table` ("p." or ""). */
function orderBy(sort: ListSort | undefined, table: string): string {
  switch (sort ?? "updated") {
    case "updated":
      return `${table}updated_at DESC, ${table}id DESC`;
    case "title":
      return `${table}title ASC, ${table}id ASC`;
    case "stock":
      return `${table}quantity ASC NULLS LAST, ${table}id ASC`;
  }
}

type PageRow = ProductViewRow & { listings: ListingStatusView[] };

/**
 * A search (`q`) counts at most this many matching products past the start of the page asked for:
 * the exact count of a common word's matches at a million products (285,856 rows of "cotton")
 * took 916 ms against a few ms for its page. Past it the total is a lower bound
 * (`totalExact: false`) that still reaches the next pages. Lists without `q` are counted exactly
 * (an index-only count, cached per filter). Each match counted costs a visit to the table (the
 * trigram indexes cannot tell a substring's match for sure), so this bounds a search's cost: at a
 * million products, searches' p99 was 70 ms counting up to 10,000, 30 ms up to 1,000, where a term
 * with more matches than that walks the catalog's order to its page (SearchWay).
 */
export const SEARCH_COUNT_LIMIT = 1_000;

/**
 * Where a search's count starts for a page at `offset`: a multiple of half the limit, so that the
 * pages of one stretch share a count and each still sees at least half the limit beyond it.
 */
export const searchCountStart = (offset: number) => offset - (offset % (SEARCH_COUNT_LIMIT / 2));

/**
 * How many of the org's products a list with this filter has: exactly without `q`; with `q`, up to
 * SEARCH_COUNT_LIMIT past `from` (see searchCountStart).
 */
export async function countProducts(
  db: Db,
  orgId: string,
  filter: ProductFilter,
  from = 0,
): Promise<CappedCount> {
  const where = listWhere(orgId, filter);
  if (filter.q?.trim()) return cappedCount(db, "products", where, from, SEARCH_COUNT_LIMIT);
  const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM products WHERE ${where.sql}`,
    ...where.params,
  );
  return { total: Number(row?.n ?? 0), exact: true };
}

/**
 * One page of the org's catalog, newest edits first; `q` matches title or SKU (substring, any
 * case), `sourceUrl` the page a product was imported from (exactly). Each product comes with its
 * listing status per destination. The page (its ids, rows and listings) is one SQL statement;
 * a search's count comes from the same statement (searchIdsQuery) unless the caller knows it
 * reaches past SEARCH_COUNT_LIMIT, a list's is counted beside it unless the caller has it.
 */
export async function listProducts(
  db: Db,
  orgId: string,
  query: ProductListQuery,
): Promise<ProductListPage> {
  if (!query.q?.trim())
    return walkedPage(db, orgId, query, query.total ?? countProducts(db, orgId, query));
  const known = await query.total;
  // A count known to reach past its limit is a common term's: the catalog's order finds its page.
  if (known && !known.exact) return walkedPage(db, orgId, query, known);
  const search = searchIdsQuery(orgId, query);
  // One row even for an empty page, to bring the count.
  const rows = await db.$queryRawUnsafe<(PageRow & { matches: number })[]>(
    `${search.sql} SELECT n.n AS matches, ${PAGE_COLUMNS}
     FROM n LEFT JOIN (page JOIN products p ON p.id = page.id) ON true
     ORDER BY ${orderBy(query.sort, "p.")}`,
    ...search.params,
  );
  const matches = rows[0]?.matches ?? 0;
  return listPage(
    rows.filter((r) => r.id !== null),
    { total: Math.min(matches, search.upTo), exact: matches <= search.upTo },
  );
}

/** A page found by walking the catalog's order (pageIdsQuery), with its count beside it. */
async function walkedPage(
  db: Db,
  orgId: string,
  query: ProductListQuery,
  total: CappedCount | Promise<CappedCount>,
): Promise<ProductListPage> {
  const page = pageIdsQuery(orgId, query);
  const [rows, counted] = await Promise.all([
    db.$queryRawUnsafe<PageRow[]>(
      `WITH page AS (${page.sql}) SELECT ${PAGE_COLUMNS}
       FROM page JOIN products p ON p.id = page.id ORDER BY ${orderBy(query.sort, "p.")}`,
      ...page.params,
    ),
    total,
  ]);
  return listPage(rows, counted);
}

function listPage(rows: PageRow[], counted: CappedCount): ProductListPage {
  const { total, exact: totalExact } = counted;
  if (rows.length === 0) return { items: [], total, totalExact, first: null, last: null };
  const items = rows.map(({ listings, ...row }) => ({ ...productViewOf(row), listings }));
  const position = (r: PageRow): ListPosition => ({ id: r.id, updatedAt: r.updatedAt });
  return {
    items,
    total,
    totalExact,
    first: position(rows[0]!),
    last: position(rows[rows.length - 1]!),
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
  const tooLong = titleAndSkuTooLong(fields.title, fields.sku);
  if (tooLong) throw invalid(tooLong);
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
      const tooLong = titleAndSkuTooLong(next.title ?? "", next.sku);
      if (tooLong) throw invalid(tooLong);
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
ORDER BY d.connected_at, d.name, d.id`;

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
