import type { Readable } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import {
  importInOneTransaction,
  type Actor,
  type Db,
  type ImportItem,
  type SyncCollector,
} from "@catalog/db";
import type { Semaphore } from "@catalog/fetch/semaphore";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import type { DocumentMeta } from "@catalog/extract/upload-checks";
import type { ResolvedMapping, SpooledDocument } from "./document-columns.js";
import { createImageScreen, type DroppedImage, type ImageScreen } from "./image-screen.js";
import { Tally, itemOf, type ItemResult } from "./outcomes.js";
import {
  parseInThread,
  prestartParseThread,
  type ParsedDocument,
  type ParsedEntry,
} from "./parse-thread.js";
import { spoolUpload } from "./spool.js";
import { transactionLimitMs } from "./transaction-limit.js";

/** Rows per batch: large enough for bulk statements, small enough to keep memory flat. */
const BATCH_ROWS = 500;
/** ...unless the rows are wide: a batch's items are held by the gateway while it is written. */
const BATCH_CHARS = 8 * 1024 * 1024;

export interface DocumentLimits {
  maxBytes: number;
  /** The parser thread's heap, in MB. */
  parseHeapMb: number;
  /**
   * How long a persisted import may hold its transaction open, at least: longer for a document
   * too large to be done within it at the slowest allowed pace (transactionLimitMs).
   */
  timeoutMs: number;
  /** Where uploads are spooled. */
  spoolDir: string;
  /**
   * Imports that may parse at once, each holding a parser thread of `parseHeapMb`: the bound on
   * what documents cost the gateway however many arrive. An upload is spooled before it waits.
   */
  slots: Semaphore;
}

export interface DocumentImportRequest {
  orgId: string;
  actor: Actor;
  file: MultipartFile;
  persist: boolean;
  /** The store's currency, for documents whose prices do not say (Shopify's export does not). */
  currency?: string;
  /**
   * A CSV/TSV file's encoding as the uploader named it (checked with `encodingName`); else
   * detected.
   */
  encoding?: string;
  /** The column mapping to read the spooled upload with (the one sent, an org template, or none). */
  resolveMapping?: (doc: SpooledDocument) => Promise<ResolvedMapping>;
  limits: DocumentLimits;
  /** The page URL policy, applied to the document's image URLs. */
  imagePolicy: UrlPolicy;
  /** Aborts when the client goes away: the import stops and nothing is stored. */
  signal: AbortSignal;
  /** Collects the automatic syncs of updated products (enqueued by the caller after commit). */
  sync?: SyncCollector;
}

/**
 * Spools the upload to disk, parses it in a worker thread a batch at a time, and previews or
 * persists each batch as it comes. A persisted import is one transaction, committed once the
 * last row is read: a document refused part way (a limit, broken JSON at row 80,000), a batch
 * the database refuses, or a client gone leaves the catalog as it was, and the client reads a
 * plain `{ error }` (413/415/422, or 5xx for the database). The answer ends with the encoding the
 * text was read in (`encoding`, null for XLSX and JSON). The answer is written to the spool
 * as batches complete and sent once the import is complete, so a 100,000-row document never
 * sits in memory, neither as rows nor as the answer. The spool is removed on every path.
 */
export async function importDocument(db: Db, request: DocumentImportRequest): Promise<Readable> {
  const { limits } = request;
  prestartParseThread(limits.parseHeapMb);
  const spool = await spoolUpload(request.file.file, limits.maxBytes, limits.spoolDir);
  try {
    const answer = await spool.answer();
    const tally = new Tally("document");
    const screenImages = createImageScreen(request.imagePolicy);
    let first = true;
    const write = (items: (ItemResult & { row: number })[]) => {
      let text = "";
      for (const item of items) {
        tally.add(item);
        text += `${first ? "" : ","}${JSON.stringify(item)}`;
        first = false;
      }
      return answer.write(text);
    };
    await answer.write(`{"persisted":${request.persist},"items":[`);
    let parsed: ParsedDocument | null = null;
    const meta: DocumentMeta = {
      filename: request.file.filename,
      contentType: request.file.mimetype,
      maxBytes: limits.maxBytes,
      ...(request.currency ? { currency: request.currency } : {}),
      ...(request.encoding ? { encoding: request.encoding } : {}),
    };
    const resolved = await request.resolveMapping?.({ path: spool.path, tmpDir: spool.dir, meta });
    if (resolved?.mapping) meta.mapping = resolved.mapping;
    const parsing = parseInThread(
      {
        path: spool.path,
        tmpDir: spool.dir,
        batchRows: BATCH_ROWS,
        batchChars: BATCH_CHARS,
        meta,
      },
      { heapMb: limits.parseHeapMb, signal: request.signal },
    );
    // The same batches, keeping what the parser returns at the end (stopping early stops it too).
    const batches = (async function* () {
      parsed = yield* parsing;
    })();
    await limits.slots.run(() =>
      importInOneTransaction(
        db,
        request.orgId,
        {
          actor: request.actor,
          source: "document",
          persist: request.persist,
          descriptionsStored: true,
          timeoutMs: transactionLimitMs(limits.timeoutMs, spool.bytes),
          ...(request.sync ? { sync: request.sync } : {}),
        },
        async (importBatch) => {
          // Batch n+1 is taken from the parser (its JSON read) and its images screened while
          // batch n is written: the main thread works while PostgreSQL does, one batch ahead at
          // most. The batches are still written strictly one after another.
          const readAhead = () => {
            const next = screenNext(batches, screenImages);
            // Awaited below; until then a refusal must not count as unhandled.
            next.catch(() => undefined);
            return next;
          };
          let ahead = readAhead();
          try {
            for (let current = await ahead; current; current = await ahead) {
              const { batch, importable, dropped } = current;
              const writing =
                importable.length === 0
                  ? Promise.resolve([])
                  : importBatch(importable.map((entry) => entry.item));
              ahead = readAhead();
              const outcomes = await writing;
              const results = new Map(
                importable.map((entry, i) => [entry, itemOf(outcomes[i]!, dropped[i])]),
              );
              // Failed rows stay in their place, so the answer keeps the document's order.
              await write(
                batch.map((entry: ParsedEntry) => ({
                  row: entry.row,
                  ...("item" in entry
                    ? results.get(entry)!
                    : { ok: false as const, error: entry.error }),
                })),
              );
              request.signal.throwIfAborted();
            }
          } finally {
            // Stops the parser thread if the import ends early (once the batch ahead is read).
            await ahead.catch(() => undefined);
            await batches.return(undefined);
          }
        },
      ),
    );
    await answer.write(
      `],"summary":${JSON.stringify(tally.summary)},"encoding":${JSON.stringify((parsed as ParsedDocument | null)?.encoding ?? null)}}`,
    );
    return await answer.read();
  } finally {
    await spool.remove();
  }
}

/** A parsed batch with its importable entries, their images screened (`dropped` per entry). */
interface ScreenedBatch {
  batch: ParsedEntry[];
  importable: { row: number; item: ImportItem }[];
  dropped: DroppedImage[][];
}

/** The parser's next batch, its images screened; null once the document is read. */
async function screenNext(
  batches: AsyncGenerator<ParsedEntry[], void>,
  screenImages: ImageScreen,
): Promise<ScreenedBatch | null> {
  const step = await batches.next();
  if (step.done) return null;
  const importable = step.value.filter(
    (entry): entry is { row: number; item: ImportItem } => "item" in entry,
  );
  const dropped = await Promise.all(importable.map((entry) => screenImages(entry.item)));
  return { batch: step.value, importable, dropped };
}
