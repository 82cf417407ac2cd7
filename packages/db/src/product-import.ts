import { randomUUID } from "node:crypto";
import type pg from "pg";
import { isUniqueViolation, transactionConnection, type Db } from "./client.js";
import type { Prisma } from "./generated/client.js";
import type { ProductSource } from "./generated/enums.js";
import { fieldDiff, type FieldChanges } from "./field-diff.js";
import {
  VIEW_COLUMNS,
  fieldsOf,
  productViewOf,
  withStoredDescription,
  type ProductFields,
  type ProductView,
  type ProductViewRow,
} from "./product-view.js";
import type { Actor } from "./products.js";
import { writeProducts } from "./imports/import-writes.js";
import { lockInIdOrder } from "./row-locks.js";
import { planChangeSyncs, type SyncCollector } from "./sync/change-syncs.js";
import { conflict } from "./service-error.js";
import { keepKnownQuantities, stockDerived, storedStock } from "./stock-fields.js";
import { isTransactionConflict, retryOnConflict } from "./transaction-retry.js";

/** One product to import: the fields its source gave (absent or empty ones are not touched). */
export interface ImportItem {
  fields: Partial<ProductFields> & { title: string };
  /** Where each field came from ({ field: { source, method } }). */
  provenance: Record<string, unknown>;
}

export type ImportOutcome =
  | { action: "created"; product: ProductView; changes: FieldChanges }
  | { action: "updated"; product: ProductView; changes: FieldChanges }
  | {
      action: "preview";
      wouldBe: "created" | "updated";
      existingId: string | null;
      product: ProductView;
      changes: FieldChanges;
      /** The catalog product the item would update, and which key matched it. */
      match: ImportMatch | null;
    };

export interface ImportMatch {
  productId: string;
  title: string;
  sku: string | null;
  by: "sku" | "sourceUrl";
}

/** A matched product as planning reads it: its view's columns and its provenance. */
type Existing = ProductViewRow & { provenance: Prisma.JsonValue };

/**
 * Read by SQL, not Prisma's model client: mapping an unchanged 100,000-row import's 40,000
 * matched products through it took about a second of the gateway's main thread.
 */
const EXISTING = `SELECT ${VIEW_COLUMNS}, p.provenance FROM products p WHERE p.id = ANY($1::uuid[])`;

interface Planned {
  id: string;
  existing: Existing | null;
  /** The existing product's fields (fieldsOf), null for a new one. */
  base: ProductFields | null;
  fields: ProductFields;
  provenance: Record<string, unknown>;
  changes: FieldChanges;
}

/**
 * Fields the source actually gave: null, blank text and empty lists leave the catalog's value
 * alone.
 */
function given(fields: Partial<ProductFields>): Partial<ProductFields> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (typeof value === "string" && value.trim() === "") continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0)
      continue;
    out[key] = value;
  }
  return out;
}

const EMPTY: ProductFields = {
  title: "",
  sku: null,
  description: null,
  price: null,
  images: [],
  brand: null,
  gtin: null,
  mpn: null,
  availability: null,
  quantity: null,
  variants: [],
  attributes: {},
  sourceUrl: null,
};

export interface ImportOptions {
  actor: Actor;
  source: ProductSource;
  persist: boolean;
  /**
   * Collects the automatic syncs of the products it updates (enqueue them after the commit;
   * discard them when the import failed).
   */
  sync?: SyncCollector;
  /**
   * The items' descriptions are in the stored form already (`storedDescription`, applied by the
   * document parser thread off the gateway's main thread): planning does not clean them again.
   */
  descriptionsStored?: boolean;
}

const BITMAP_SCANS_OFF = "SET LOCAL enable_bitmapscan = off";

/** The PrismaClient, or the client of an interactive transaction (which cannot open another). */
type Client = Db | Prisma.TransactionClient;
const isClient = (client: Client): client is Db => "$transaction" in client;

/**
 * Matches each item to the org's catalog (by SKU, else by source URL, else an earlier item of
 * the same batch) and either reports what would happen (`persist: false`, nothing written) or
 * writes the whole batch in one transaction: bulk inserts and updates, and one `imported`
 * history entry per changed product. Never reads or writes another org's rows.
 */
export async function importProducts(
  db: Db,
  orgId: string,
  items: ImportItem[],
  options: ImportOptions,
): Promise<ImportOutcome[]> {
  if (!options.persist) return previewBatch(db, orgId, items, options);
  return asConflict(() =>
    retryOnConflict(() =>
      db.$transaction(
        async (tx) => writeBatch(tx, await transactionConnection(db, tx), orgId, items, options),
        { timeout: 60_000 },
      ),
    ),
  );
}

/** Imports one batch; see importInOneTransaction. */
export type ImportBatch = (items: ImportItem[]) => Promise<ImportOutcome[]>;

/**
 * Hands `run` a function that imports a batch as importProducts does, for as many batches as it
 * likes. When persisting, every batch is written in one transaction that commits when `run`
 * returns: if `run` or a batch throws (a batch the database refuses, a document found broken
 * further down, a client that went away), nothing of the import is stored. A batch matches
 * the products earlier batches created, as it would after their commit.
 */
export async function importInOneTransaction<T>(
  db: Db,
  orgId: string,
  options: ImportOptions & { timeoutMs: number },
  // `tx` (null in a preview) lets the caller record its own rows in the same transaction.
  run: (importBatch: ImportBatch, tx: Prisma.TransactionClient | null) => Promise<T>,
): Promise<T> {
  if (!options.persist) return run((items) => previewBatch(db, orgId, items, options), null);
  return asConflict(() =>
    db.$transaction(
      async (tx) => {
        // Once for the whole import, not before every batch's matching (see matchingIds): its
        // other statements read or write by primary key, which plain index scans serve as well.
        await tx.$executeRawUnsafe(BITMAP_SCANS_OFF);
        const conn = await transactionConnection(db, tx);
        return run(
          (items) => writeBatch(tx, conn, orgId, items, { ...options, bitmapScansOff: true }),
          tx,
        );
      },
      { timeout: options.timeoutMs, maxWait: 10_000 },
    ),
  );
}

async function asConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(
        "another import created a product with one of these SKUs meanwhile: import again",
      );
    // A document's one transaction cannot be run again (its rows were read from the upload as it
    // went).
    if (isTransactionConflict(error))
      throw conflict(
        "another import or edit changed some of these products at the same moment; nothing was stored: import again",
      );
    throw error;
  }
}

/**
 * A planned product's view, as it is once the plan is written (or would be): an unchanged product
 * as it is stored, else its planned fields. Their description is in the stored form already
 * (planning put it there), so it is not cleaned a second time on the way.
 */
function plannedView(p: Planned, source: ProductSource, now: Date): ProductView {
  if (p.existing && Object.keys(p.changes).length === 0) return productViewOf(p.existing, p.base!);
  return {
    ...productViewOf({
      ...columnsFor(p.fields),
      description: null,
      id: p.id,
      source: p.existing?.source ?? source,
      version: (p.existing?.version ?? 0) + 1,
      createdAt: p.existing?.createdAt ?? now,
      updatedAt: now,
    }),
    description: p.fields.description,
  };
}

async function previewBatch(
  db: Db,
  orgId: string,
  items: ImportItem[],
  options: ImportOptions,
): Promise<ImportOutcome[]> {
  const plan = await planImport(db, orgId, items, options);
  const now = new Date();
  return plan.map((p) => ({
    action: "preview" as const,
    wouldBe: p.existing ? ("updated" as const) : ("created" as const),
    existingId: p.existing?.id ?? null,
    product: plannedView(p, options.source, now),
    changes: p.changes,
    match: p.existing
      ? { productId: p.existing.id, title: p.existing.title, sku: p.existing.sku, by: matchedBy(p) }
      : null,
  }));
}

const matchedBy = (p: Planned): ImportMatch["by"] =>
  p.fields.sku && p.existing?.sku === p.fields.sku ? "sku" : "sourceUrl";

async function writeBatch(
  tx: Prisma.TransactionClient,
  conn: pg.ClientBase,
  orgId: string,
  items: ImportItem[],
  options: ImportOptions & { bitmapScansOff?: boolean },
): Promise<ImportOutcome[]> {
  const plan = await planImport(tx, orgId, items, { ...options, lock: true });
  const now = new Date();
  const creates = unique(plan.filter((p) => !p.existing));
  const updates = unique(plan.filter((p) => p.existing && Object.keys(p.changes).length > 0));
  await writeProducts(conn, creates, updates, { orgId, now, ...options });
  if (options.sync && updates.length > 0)
    await planChangeSyncs(
      tx,
      orgId,
      updates.map((p) => ({ productId: p.id, fields: Object.keys(p.changes) })),
      options.sync,
    );
  return plan.map((p) => ({
    action: p.existing ? ("updated" as const) : ("created" as const),
    product: plannedView(p, options.source, now),
    changes: p.changes,
  }));
}

/** An item that repeats an earlier one of the batch shares its plan: write each product once. */
const unique = (plans: Planned[]) => [...new Set(plans)];

/**
 * Matches the items to the catalog. With `lock` (writing, in a transaction) the matched products
 * are locked first, in id order as every writer locks rows, and only then read: imports of the
 * same products in any order queue for them, and each plans from the latest state.
 */
async function planImport(
  db: Client,
  orgId: string,
  items: ImportItem[],
  {
    lock = false,
    descriptionsStored = false,
    bitmapScansOff = false,
  }: { lock?: boolean; descriptionsStored?: boolean; bitmapScansOff?: boolean },
): Promise<Planned[]> {
  const skus = [...new Set(items.map((i) => i.fields.sku?.trim()).filter((s): s is string => !!s))];
  const urls = [...new Set(items.map((i) => i.fields.sourceUrl).filter((u): u is string => !!u))];
  const ids =
    skus.length + urls.length === 0 ? [] : await matchingIds(db, orgId, skus, urls, bitmapScansOff);
  if (lock && ids.length > 0)
    await db.$executeRawUnsafe(lockInIdOrder("products", "id = ANY($1::uuid[])"), ids);
  const found = ids.length === 0 ? [] : await db.$queryRawUnsafe<Existing[]>(EXISTING, ids);
  const bySku = new Map(found.filter((p) => p.sku).map((p) => [p.sku!, p]));
  const byUrl = new Map(found.filter((p) => p.sourceUrl).map((p) => [p.sourceUrl!, p]));
  const inBatch = new Map<string, Planned>();

  return items.map((item) => {
    const trimmed = { ...item.fields, sku: item.fields.sku?.trim() ?? null };
    const fields = given(descriptionsStored ? trimmed : withStoredDescription(trimmed));
    const keys = [
      fields.sku ? `sku:${fields.sku}` : null,
      fields.sourceUrl ? `url:${fields.sourceUrl}` : null,
    ].filter((k): k is string => !!k);
    const earlier = keys.map((k) => inBatch.get(k)).find(Boolean);
    const existing = earlier
      ? null
      : ((fields.sku ? bySku.get(fields.sku) : undefined) ??
        (fields.sourceUrl ? byUrl.get(fields.sourceUrl) : undefined) ??
        null);
    let planned: Planned;
    if (earlier) {
      // The same product twice in one batch: the later item refines the earlier one.
      const { next, own } = withStockOf(earlier.fields, fields);
      Object.assign(earlier.changes, fieldDiff(earlier.fields, own));
      earlier.fields = next;
      earlier.provenance = { ...earlier.provenance, ...item.provenance };
      planned = earlier;
    } else {
      // The item's description is in the stored form: an existing one equal to it needs no
      // cleaning (at 40,000 unchanged products, cleaning each took about a second).
      const base = existing ? fieldsOf(existing, fields.description) : null;
      const { next, own } = withStockOf(base ?? EMPTY, fields);
      planned = {
        id: existing?.id ?? randomUUID(),
        existing,
        base,
        fields: next,
        provenance: {
          ...((existing?.provenance as Record<string, unknown> | undefined) ?? {}),
          ...item.provenance,
        },
        changes: fieldDiff(base ?? {}, own),
      };
    }
    for (const key of keys) inBatch.set(key, planned);
    return planned;
  });
}

/**
 * The fields an item leaves a product with (`next`: `base` with the item's fields over it, the
 * variants keeping the quantities the item does not give, the stock rule applied), and those
 * the item sets (`own`: its fields and what the stock rule derived from them).
 */
function withStockOf(
  base: ProductFields,
  fields: Partial<ProductFields>,
): { next: ProductFields; own: Partial<ProductFields> } {
  const merged = { ...base, ...fields };
  if (fields.variants) merged.variants = keepKnownQuantities(fields.variants, base.variants);
  const next = storedStock(merged);
  const own = { ...fields, ...stockDerived(merged, next) };
  if (fields.variants) own.variants = next.variants;
  return { next, own };
}

/**
 * Ids of the org's products with one of these SKUs or source URLs, found through the
 * (org_id, sku) and (org_id, source_url) b-trees. Bitmap scans are off for this one query
 * because the only index they would add is the trigram GIN index on sku (kept for search),
 * which the planner judged cheap for equality and which took seconds per batch once the
 * catalog held a few thousand similar SKUs. `bitmapScansOff`: the transaction has them off
 * already (importInOneTransaction), which saves a statement a batch. (An interactive
 * transaction's client has `$transaction` too, so inside one the setting went through the first
 * branch and stayed off until the commit: the transaction's later statements already ran so.)
 */
async function matchingIds(
  db: Client,
  orgId: string,
  skus: string[],
  urls: string[],
  bitmapScansOff: boolean,
): Promise<string[]> {
  const query = (client: Client) =>
    client.$queryRawUnsafe<{ id: string }[]>(
      `SELECT p.id FROM unnest($2::text[]) AS s(sku) JOIN products p ON p.org_id = $1::uuid AND p.sku = s.sku
     UNION
     SELECT p.id FROM unnest($3::text[]) AS u(url) JOIN products p ON p.org_id = $1::uuid AND p.source_url = u.url AND p.deleted_at IS NULL`,
      orgId,
      skus,
      urls,
    );
  if (bitmapScansOff) return (await query(db)).map((r) => r.id);
  if (isClient(db)) {
    const [, rows] = await db.$transaction([db.$executeRawUnsafe(BITMAP_SCANS_OFF), query(db)]);
    return rows.map((r) => r.id);
  }
  // Inside a longer transaction: the setting is put back for the statements that follow.
  await db.$executeRawUnsafe(BITMAP_SCANS_OFF);
  const rows = await query(db);
  await db.$executeRawUnsafe("SET LOCAL enable_bitmapscan TO DEFAULT");
  return rows.map((r) => r.id);
}

function columnsFor(f: ProductFields) {
  return {
    title: f.title,
    sku: f.sku,
    description: f.description,
    priceAmount: f.price?.amount ?? null,
    priceCurrency: f.price?.currency ?? null,
    images: f.images,
    brand: f.brand,
    gtin: f.gtin,
    mpn: f.mpn,
    availability: f.availability,
    quantity: f.quantity,
    variants: f.variants as unknown as Prisma.JsonValue,
    attributes: f.attributes as Prisma.JsonValue,
    sourceUrl: f.sourceUrl,
  };
}
