import { transactionConnection, type Db } from "../client.js";
import { copyRows } from "../copy-text.js";
import type { FieldChanges } from "../field-diff.js";
import type { ImportRow as ImportRowRecord } from "../generated/client.js";
import type { ImportRowOutcome, ImportStoredAction } from "../generated/enums.js";
import type { ImportItem, ImportMatch, ImportOutcome } from "../product-import.js";
import {
  PRODUCT_FIELDS,
  withStoredDescription,
  withStoredDescriptions,
  type ProductFields,
} from "../product-view.js";
import type { Page } from "../products.js";
import { ImportStopped, getImport, updateOwnedImport } from "./import-records.js";
import { ServiceError } from "../service-error.js";

export interface DroppedImageNote {
  url: string;
  reason: string;
}

/** One previewed row as it is recorded: what the preview showed, and the item storing writes. */
export interface PreviewRow {
  row: number;
  url: string | null;
  outcome: ImportRowOutcome;
  error: string | null;
  match: ImportMatch | null;
  changes: FieldChanges;
  product: ProductFields | null;
  item: ImportItem | null;
  droppedImages: DroppedImageNote[];
}

/**
 * A recorded row as clients read it: the preview (without the item kept for storing) and what
 * storing did.
 */
export interface ImportRowView extends Omit<PreviewRow, "item" | "droppedImages"> {
  droppedImages?: DroppedImageNote[];
  /**
   * What the row stores differently from what its source says (a price without a currency,
   * image paths that are not web addresses).
   */
  warnings: string[];
  skipped: boolean;
  stored: ImportStoredAction | null;
  storedProductId: string | null;
}

/**
 * The amount of a price given without a currency (a Shopify or WooCommerce export says none):
 * the documents reader keeps it in `attributes.priceWithoutCurrency` and leaves `price` empty.
 */
function priceWithoutCurrency(product: ProductFields | null): string | null {
  const amount = product?.price === null ? product.attributes.priceWithoutCurrency : undefined;
  return typeof amount === "string" ? amount : null;
}

/**
 * Image paths relative to the shop's own media folder (Magento's `/m/h/...`, a BigCommerce image
 * file name), which the documents reader leaves out and lists in `attributes.relativeImagesLeftOut`.
 */
function relativeImagesLeftOut(product: ProductFields | null): string[] {
  const paths: unknown = product?.attributes.relativeImagesLeftOut;
  return Array.isArray(paths) ? paths.filter((path) => typeof path === "string") : [];
}

/** How many left-out image paths a warning names; the rest are counted. */
const NAMED_PATHS = 5;

function relativeImagesWarning(paths: string[]): string {
  const named = paths.slice(0, NAMED_PATHS).join(", ");
  const more = paths.length > NAMED_PATHS ? ` and ${paths.length - NAMED_PATHS} more` : "";
  const one = paths.length === 1;
  return (
    `${one ? "the image" : "the images"} ${named}${more} ${one ? "is a path" : "are paths"} on the shop's ` +
    `own server, not a web address, so ${one ? "it is" : "they are"} left out: export the file with full image ` +
    "URLs (https://...), or add the images to the product after storing"
  );
}

function warningsOf(product: ProductFields | null): string[] {
  const amount = priceWithoutCurrency(product);
  const paths = relativeImagesLeftOut(product);
  return [
    ...(amount === null
      ? []
      : [
          `the price ${amount} has no currency, so the product is stored without a price: import the file again with its currency chosen`,
        ]),
    ...(paths.length === 0 ? [] : [relativeImagesWarning(paths)]),
  ];
}

const fieldsOfView = (view: ProductFields): ProductFields =>
  Object.fromEntries(
    PRODUCT_FIELDS.map((field) => [field, view[field]]),
  ) as unknown as ProductFields;

/**
 * "create" for a new product, "unchanged" when the item changes no field of the product it matches,
 * else "update".
 */
export const importRowOutcome = (
  isNew: boolean,
  changes: FieldChanges,
): Exclude<ImportRowOutcome, "error"> =>
  isNew ? "create" : Object.keys(changes).length === 0 ? "unchanged" : "update";

/**
 * A preview outcome as a row, its outcome by importRowOutcome. `item` is kept as it was previewed
 * (after the image screen), so that storing writes exactly what the user saw.
 */
export function previewRowOf(
  at: { row: number; url: string | null },
  outcome: ImportOutcome,
  item: ImportItem,
  droppedImages: DroppedImageNote[] = [],
): PreviewRow {
  if (outcome.action !== "preview") throw new Error("previewRowOf takes a preview outcome");
  return {
    ...at,
    outcome: importRowOutcome(outcome.existingId === null, outcome.changes),
    error: null,
    match: outcome.match,
    changes: outcome.changes,
    product: fieldsOfView(outcome.product),
    item,
    droppedImages,
  };
}

export function errorRow(at: { row: number; url: string | null }, error: string): PreviewRow {
  return {
    ...at,
    outcome: "error",
    error,
    match: null,
    changes: {},
    product: null,
    item: null,
    droppedImages: [],
  };
}

/**
 * Records a batch of previewed rows and moves the import's progress and counts, in one
 * transaction, only while the import is still previewing (else ImportStopped, and the batch is
 * not kept). `seq` numbers the rows in arrival order, `firstSeq` being the number of rows
 * recorded before: a batch recorded already (sent again after its commit was lost with the
 * connection) is not recorded twice. The rows go in by COPY on the transaction's own connection:
 * their values never become statement parameters.
 */
export async function recordPreviewBatch(
  db: Db,
  importId: string,
  firstSeq: number,
  rows: PreviewRow[],
): Promise<void> {
  const count = (outcome: ImportRowOutcome) => rows.filter((r) => r.outcome === outcome).length;
  await db.$transaction(
    async (tx) => {
      const owned = await updateOwnedImport(
        tx,
        importId,
        "previewing",
        {
          done: { increment: rows.length },
          countCreate: { increment: count("create") },
          countUpdate: { increment: count("update") },
          countUnchanged: { increment: count("unchanged") },
          countError: { increment: count("error") },
          countNoCurrency: {
            increment: rows.filter((r) => priceWithoutCurrency(r.product) !== null).length,
          },
        },
        { done: firstSeq },
      );
      if (!owned) {
        const now = await tx.import.findUnique({
          where: { id: importId },
          select: { status: true, done: true },
        });
        if (now?.status === "previewing" && now.done === firstSeq + rows.length) return;
        throw new ImportStopped();
      }
      if (rows.length > 0)
        await copyRows(
          await transactionConnection(db, tx),
          `import_rows (import_id, seq, row, url, outcome, error, match_product_id, match_by,
            match_title, match_sku, changes, product, item, dropped_images)`,
          rows,
          (r, i) => [
            importId,
            firstSeq + i,
            r.row,
            r.url,
            r.outcome,
            r.error,
            r.match?.productId ?? null,
            r.match?.by ?? null,
            r.match?.title ?? null,
            r.match?.sku ?? null,
            JSON.stringify(r.changes),
            jsonOrNull(r.product),
            jsonOrNull(r.item),
            r.droppedImages.length > 0 ? JSON.stringify(r.droppedImages) : null,
          ],
        );
    },
    { timeout: 60_000 },
  );
}

const jsonOrNull = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

function toRowView(r: ImportRowRecord): ImportRowView {
  const product = (r.product as ProductFields | null) ?? null;
  return {
    row: r.row,
    url: r.url,
    outcome: r.outcome,
    error: r.error,
    match: r.matchProductId
      ? {
          productId: r.matchProductId,
          title: r.matchTitle ?? "",
          sku: r.matchSku,
          by: r.matchBy === "sku" ? "sku" : "sourceUrl",
        }
      : null,
    // Rows previewed before descriptions had one form hold them as given: read in that form.
    changes: withStoredDescriptions(r.changes as FieldChanges),
    product: product && withStoredDescription(product),
    ...(r.droppedImages ? { droppedImages: r.droppedImages as unknown as DroppedImageNote[] } : {}),
    warnings: warningsOf(product),
    skipped: r.skipped,
    stored: r.stored,
    storedProductId: r.storedProductId,
  };
}

/**
 * The import's rows in document (or URL) order, optionally of one outcome; 404 for another org's
 * import.
 */
export async function listImportRows(
  db: Db,
  orgId: string,
  importId: string,
  query: { page: number; pageSize: number; outcome?: ImportRowOutcome },
): Promise<Page<ImportRowView>> {
  const { rowsRemovedAt } = await getImport(db, orgId, importId);
  if (rowsRemovedAt)
    throw new ServiceError(
      410,
      `the rows of import ${importId} were removed by retention on ${rowsRemovedAt.slice(0, 10)}, after it ended; its counts and result remain`,
    );
  const where = { importId, ...(query.outcome ? { outcome: query.outcome } : {}) };
  const [rows, total] = await Promise.all([
    db.importRow.findMany({
      where,
      orderBy: [{ row: "asc" }, { seq: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db.importRow.count({ where }),
  ]);
  return { items: rows.map(toRowView), total };
}
