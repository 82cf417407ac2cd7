import type { MultipartFile } from "@fastify/multipart";
import type { EncodingChoice } from "@catalog/extract/upload-checks";
import {
  finishPreview,
  recordPreviewBatch,
  retryWhileDatabaseUnavailable,
  startPhase,
  type Actor,
  type Db,
  type ImportMappingUse,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import type { DocumentLimits } from "./document-import.js";
import type { ResolvedMapping, SpooledDocument } from "./document-columns.js";
import { createImageScreen } from "./image-screen.js";
import {
  parseInThread,
  prestartParseThread,
  type ParseJob,
  type ParsedEntry,
} from "./parse-thread.js";
import { spoolUpload, type Spool } from "./spool.js";
import { previewScreened, screenEntries, type PreviewEntry } from "./preview-rows.js";

/** The same batches as the synchronous document route: bulk statements, flat memory. */
const BATCH_ROWS = 500;
const BATCH_CHARS = 8 * 1024 * 1024;

export type DocumentPreviewLimits = Omit<DocumentLimits, "timeoutMs">;

/**
 * An upload that has been read once: it can be imported, how many rows it has, and in which
 * encoding it reads.
 */
export interface CheckedDocument {
  spool: Spool;
  job: ParseJob;
  rows: number;
  /** A CSV/TSV file's; null for XLSX, JSON, NDJSON and XML. */
  encoding: EncodingChoice | null;
  /** How its columns are read, when not automatically. */
  mapping: ImportMappingUse | null;
}

/**
 * The upload's text parts: the store currency, and a CSV/TSV file's encoding when the uploader
 * names it.
 */
export interface DocumentParts {
  currency?: string | undefined;
  encoding?: string | undefined;
  /**
   * The column mapping to read the spooled upload with (the one sent, an org template, or none):
   * decided once the file is on disk.
   */
  resolveMapping?: ((doc: SpooledDocument) => Promise<ResolvedMapping>) | undefined;
}

/**
 * Spools the upload and reads it once, counting its rows, in a parser thread under the
 * document slots (like the synchronous route): a document refused as a whole (415, 413, 422:
 * its type, a limit, empty, damaged) is refused before an import exists, and the import knows
 * its total from the start, so its progress and ETA mean something. The spool is kept for the
 * preview (the caller removes it); on refusal it is removed here.
 */
export async function checkDocument(
  file: MultipartFile,
  parts: DocumentParts,
  limits: DocumentPreviewLimits,
  signal: AbortSignal,
): Promise<CheckedDocument> {
  prestartParseThread(limits.parseHeapMb);
  const spool = await spoolUpload(file.file, limits.maxBytes, limits.spoolDir);
  try {
    const job: ParseJob = {
      path: spool.path,
      tmpDir: spool.dir,
      batchRows: BATCH_ROWS,
      batchChars: BATCH_CHARS,
      meta: {
        filename: file.filename,
        contentType: file.mimetype,
        maxBytes: limits.maxBytes,
        ...(parts.currency ? { currency: parts.currency } : {}),
        ...(parts.encoding ? { encoding: parts.encoding } : {}),
      },
    };
    const resolved = await parts.resolveMapping?.({
      path: spool.path,
      tmpDir: spool.dir,
      meta: job.meta,
    });
    if (resolved?.mapping) job.meta.mapping = resolved.mapping;
    const { rows, encoding } = await limits.slots.run(async () => {
      const counting = parseInThread(
        { ...job, countOnly: true },
        { heapMb: limits.parseHeapMb, signal },
      );
      let step = await counting.next();
      while (!step.done) step = await counting.next();
      return step.value;
    });
    // The preview reads the same bytes with the same rules, so in the same encoding.
    return { spool, job, rows, encoding, mapping: resolved?.use ?? null };
  } catch (error) {
    await spool.remove();
    throw error;
  }
}

export interface DocumentPreviewRequest {
  db: Db;
  orgId: string;
  importId: string;
  actor: Actor;
  document: CheckedDocument;
  parseHeapMb: number;
  imagePolicy: UrlPolicy;
}

/**
 * Reads the document again, a batch at a time, and previews each batch against the catalog as
 * the synchronous route does (same image screen, same matching and diff), recording its rows
 * and progress; nothing is stored in the catalog. The caller removes the spool however it ends.
 * A database outage is waited out at the batch it stopped.
 */
export async function previewDocument(
  request: DocumentPreviewRequest,
  signal: AbortSignal,
): Promise<void> {
  const { db, importId, document } = request;
  const retry = <T>(step: () => Promise<T>) => retryWhileDatabaseUnavailable(step, signal);
  await retry(() => startPhase(db, importId, "previewing", document.rows));
  const screenImages = createImageScreen(request.imagePolicy);
  await previewBatches(request, signal, screenImages);
  await retry(() => finishPreview(db, importId));
}

async function previewBatches(
  request: DocumentPreviewRequest,
  signal: AbortSignal,
  screenImages: ReturnType<typeof createImageScreen>,
): Promise<void> {
  const { db, importId, document } = request;
  const retry = <T>(step: () => Promise<T>) => retryWhileDatabaseUnavailable(step, signal);
  const options = { actor: request.actor, source: "document" as const, descriptionsStored: true };
  const parsing = parseInThread(document.job, { heapMb: request.parseHeapMb, signal });
  // The same batches (stopping early stops the parser too).
  const batches = (async function* () {
    yield* parsing;
  })();
  // Batch n+1 is taken from the parser (its JSON read) and its images screened while batch n is
  // matched and recorded: the main thread works while PostgreSQL does, one batch ahead at most.
  const readAhead = () => {
    const next = batches
      .next()
      .then((step) => (step.done ? null : screenEntries(step.value.map(entryOf), screenImages)));
    // Awaited below; until then a refusal must not count as unhandled.
    next.catch(() => undefined);
    return next;
  };
  let ahead = readAhead();
  let seq = 0;
  try {
    for (let screened = await ahead; screened; screened = await ahead) {
      const batch = screened;
      const previewing = retry(() => previewScreened(db, request.orgId, options, batch));
      ahead = readAhead();
      const rows = await previewing;
      await retry(() => recordPreviewBatch(db, importId, seq, rows));
      seq += rows.length;
      signal.throwIfAborted();
    }
  } finally {
    // Stops the parser thread if the preview ends early (once the batch ahead is read).
    await ahead.catch(() => undefined);
    await batches.return(undefined);
  }
}

/** A parsed row as a preview entry: its item, or why it has none. */
function entryOf(entry: ParsedEntry): PreviewEntry {
  const at = { row: entry.row, url: null };
  return "item" in entry ? { at, item: entry.item } : { at, error: entry.error };
}
