import { Readable } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import { spoolUpload } from "./spool.js";
import { ServiceError, importProducts, type Actor, type Db, type ImportItem } from "@catalog/db";
import { DocumentError, parseDocument, type DocumentRow } from "@catalog/extract";
import { toImportItem } from "./candidate.js";
import { Tally, itemOf, type ItemResult } from "./outcomes.js";

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
  /** After each persisted batch commits, before its items are written to the answer. */
  onBatchPersisted(): Promise<void>;
}

function asServiceError(error: unknown): never {
  if (error instanceof DocumentError) throw new ServiceError(error.status, error.message);
  throw error;
}

/**
 * Reads the whole document once first, so a file that is too large, of the wrong type or
 * broken is refused (413/415/422) with nothing stored. Then streams it through the parser and
 * previews or persists it a batch at a time, writing each item to the response as its batch
 * completes: a 100,000-row file never sits in memory, neither as rows nor as the answer. Each
 * persisted batch is one transaction; a bad row is a failed item, never a failed upload.
 */
export async function importDocument(db: Db, request: DocumentImportRequest): Promise<Readable> {
  const upload = await spoolUpload(request.file.file, request.maxBytes);
  const rows = () => parseDocument(upload.open(), {
    filename: request.file.filename, contentType: request.file.mimetype, maxBytes: request.maxBytes,
    ...(request.currency ? { currency: request.currency } : {}),
  }) as AsyncIterable<DocumentRow>;
  try {
    for await (const _ of rows()) { /* parse only: a problem with the whole document throws here */ }
  } catch (error) {
    await upload.remove();
    asServiceError(error);
  }
  return Readable.from(answer(db, request, rows(), upload.remove));
}

/** `{ "persisted": …, "items": [ … ], "summary": { … } }`, written as it is produced. */
async function* answer(db: Db, request: DocumentImportRequest, rows: AsyncIterable<DocumentRow>, done: () => Promise<void>) {
  const tally = new Tally();
  let first = true;
  const write = (item: ItemResult & { row: number }) => {
    tally.add(item);
    const text = `${first ? "" : ","}${JSON.stringify(item)}`;
    first = false;
    return text;
  };
  try {
    yield `{"persisted":${request.persist},"items":[`;
    // Failed rows wait with their batch, so the answer keeps the document's order.
    let batch: ({ row: number; item: ImportItem } | { row: number; failed: ItemResult })[] = [];
    const flush = async () => {
      const importable = batch.filter((b): b is { row: number; item: ImportItem } => "item" in b);
      const outcomes = importable.length === 0 ? [] : await importProducts(db, request.orgId, importable.map((b) => b.item), {
        actor: request.actor, source: "document", persist: request.persist,
      });
      if (request.persist && outcomes.length > 0) await request.onBatchPersisted();
      const results = new Map(importable.map((b, i) => [b, itemOf(outcomes[i]!)]));
      const text = batch.map((b) => write({ row: b.row, ...("item" in b ? results.get(b)! : b.failed) })).join("");
      batch = [];
      return text;
    };
    for await (const parsed of rows) {
      if (!parsed.ok) batch.push({ row: parsed.row, failed: { ok: false, error: parsed.error } });
      else {
        const item = toImportItem(parsed.product);
        batch.push("error" in item ? { row: parsed.row, failed: { ok: false, error: `row ${parsed.row}: ${item.error}` } } : { row: parsed.row, item });
      }
      if (batch.length >= BATCH_ROWS) yield await flush();
    }
    yield await flush();
    yield `],"summary":${JSON.stringify(tally.summary)}}`;
  } finally {
    await done();
  }
}
