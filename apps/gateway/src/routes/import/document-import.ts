import type { MultipartFile } from "@fastify/multipart";
import { spoolUpload } from "./spool.js";
import { ServiceError, importProducts, type Actor, type Db, type ImportItem } from "@catalog/db";
import { DocumentError, parseDocument, type DocumentRow } from "@catalog/extract";
import { toImportItem } from "./candidate.js";
import { itemOf, summarise, type ItemResult } from "./outcomes.js";

/** Rows per transaction: large enough for bulk statements, small enough to keep memory flat. */
const BATCH_ROWS = 500;

export interface DocumentImportRequest {
  orgId: string;
  actor: Actor;
  file: MultipartFile;
  persist: boolean;
  /** The store's currency, for documents whose prices do not say (Shopify's export does not). */
  currency?: string;
  maxBytes: number;
}

function asServiceError(error: unknown): never {
  if (error instanceof DocumentError) throw new ServiceError(error.status, error.message);
  throw error;
}

/**
 * Streams the upload through the parser and previews or persists it a batch at a time, so a
 * 100,000-row file neither holds the event loop nor the whole file in memory. Each persisted
 * batch is one transaction; a bad row is a failed item, never a failed upload. Before anything
 * is persisted the whole document is read once, so a file that is too large, of the wrong type
 * or broken is refused with nothing stored.
 */
export async function importDocument(db: Db, request: DocumentImportRequest) {
  const upload = await spoolUpload(request.file.file, request.maxBytes);
  try {
    const rows = () => parseDocument(upload.open(), {
      filename: request.file.filename, contentType: request.file.mimetype, maxBytes: request.maxBytes,
      ...(request.currency ? { currency: request.currency } : {}),
    }) as AsyncIterable<DocumentRow>;
    if (request.persist) await checkWhole(rows());
    return await importRows(db, request, rows());
  } catch (error) {
    asServiceError(error);
  } finally {
    await upload.remove();
  }
}

async function checkWhole(rows: AsyncIterable<DocumentRow>): Promise<void> {
  for await (const _ of rows) { /* parse only: a structural problem throws here */ }
}

async function importRows(db: Db, request: DocumentImportRequest, rows: AsyncIterable<DocumentRow>) {
  const items: (ItemResult & { row: number })[] = [];
  let batch: { row: number; item: ImportItem }[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const outcomes = await importProducts(db, request.orgId, batch.map((b) => b.item), {
      actor: request.actor, source: "document", persist: request.persist,
    });
    outcomes.forEach((outcome, i) => items.push({ row: batch[i]!.row, ...itemOf(outcome) }));
    batch = [];
  };

  for await (const parsed of rows) {
    if (!parsed.ok) {
      items.push({ row: parsed.row, ok: false, error: parsed.error });
      continue;
    }
    const item = toImportItem(parsed.product);
    if ("error" in item) items.push({ row: parsed.row, ok: false, error: `row ${parsed.row}: ${item.error}` });
    else batch.push({ row: parsed.row, item });
    if (batch.length >= BATCH_ROWS) await flush();
  }
  await flush();
  items.sort((a, b) => a.row - b.row);
  return { persisted: request.persist, items, summary: summarise(items) };
}
