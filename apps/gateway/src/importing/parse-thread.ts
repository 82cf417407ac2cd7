import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { isNativeError } from "node:util/types";
import { ServiceError, type ImportItem } from "@catalog/db";
import { holdHeapGrowthLimit } from "../heap-growth.js";
import { prestartThread, releaseThread, takeThread, type ThreadSpec } from "./parse-threads.js";
import type { DocumentMeta, EncodingChoice, MappedField } from "@catalog/extract/upload-checks";

/** What the worker thread (parse-worker.ts) is given. */
export interface ParseJob {
  path: string;
  meta: DocumentMeta;
  /** Where the parser may write temporary files: the upload's spool, removed with it. */
  tmpDir: string;
  batchRows: number;
  /** A batch is also sent once its JSON is this long, so wide rows make smaller batches. */
  batchChars: number;
  /**
   * Read the whole document and only count its rows (each refusal as it would be when importing).
   */
  countOnly?: boolean;
  /**
   * Read only the header and this many data rows (readColumns) and answer with the columns
   * preview instead of rows.
   */
  columns?: { sampleRows: number };
}

/** A table's columns as the parser thread reads them (readColumns; products as import items). */
export interface ColumnsRead {
  format: "csv" | "xlsx" | "json" | "ndjson" | "xml";
  layout: string;
  headers: string[];
  rows: { row: number; cells: string[] }[];
  assignments: {
    index: number;
    header: string;
    field: MappedField;
    name: string | null;
  }[];
  recognised: boolean[];
  needsMapping: boolean;
  preview: ParsedEntry[];
}

/** What reading the whole document found out, besides its rows. */
export interface ParsedDocument {
  rows: number;
  /** The CSV/TSV text encoding it was read in; null for XLSX, JSON, NDJSON and XML. */
  encoding: EncodingChoice | null;
}

/** One row of the document: an item to import, or why the row cannot be one. */
export type ParsedEntry = { row: number; item: ImportItem } | { row: number; error: string };

/** What the gateway tells a parser thread: a job to run, or that a batch was taken. */
export type ThreadCommand = { type: "job"; job: ParseJob } | { type: "more" };

export type WorkerMessage =
  | { type: "batch"; json: string }
  | { type: "done"; rows: number; encoding: EncodingChoice | null }
  | { type: "columns"; json: string }
  | { type: "refused"; status: number; message: string };

export interface ParseThreadOptions {
  /**
   * The thread's heap (V8 old generation), in MB: past it the thread is stopped, not the gateway.
   */
  heapMb: number;
  signal: AbortSignal;
}

const YOUNG_GENERATION_MB = 32;

const extension = extname(fileURLToPath(import.meta.url));
const ENTRY = new URL("./parse-worker-entry.mjs", import.meta.url);
const MODULE = new URL(`./parse-worker${extension}`, import.meta.url).href;

/** A parser thread with this old-generation limit (MB). */
const threadSpec = (heapMb: number): ThreadSpec => ({
  entry: ENTRY,
  module: MODULE,
  // A bounded young generation: the thread's garbage is short-lived rows. At 8 MB, rows still
  // held by the batch being built were promoted and garbage collection took 35% of the
  // thread's CPU (1.66 of 4.7 s on 100,000 Shopify rows); at 32 MB the thread's CPU fell by
  // about 15% (5.8 to 5.0 s over three runs each) with no measurable change in peak RSS.
  resourceLimits: {
    maxOldGenerationSizeMb: heapMb,
    maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
    stackSizeMb: 4,
  },
});

/** Starts a parser thread while an upload is received, so that its document need not wait for one. */
export const prestartParseThread = (heapMb: number): void => prestartThread(threadSpec(heapMb));

/**
 * Parses a spooled document in a worker thread and yields its rows a batch at a time. Parsing
 * is CPU work that would otherwise stall every other request the gateway serves, and a
 * document that slips past every explicit limit (document-limits.ts in @catalog/extract) then
 * exhausts the thread's heap, not the gateway's: that is a 413 naming the memory limit. A
 * document refused by the parser is a ServiceError with its status; the thread is stopped as
 * soon as the caller stops iterating or `signal` aborts. It returns the number of rows read and
 * the encoding the document was read in. While it runs, the gateway's heap growth is limited
 * (heap-growth.ts).
 */
export async function* parseInThread(
  job: ParseJob,
  options: ParseThreadOptions,
): AsyncGenerator<ParsedEntry[], ParsedDocument> {
  const worker = takeThread(threadSpec(options.heapMb));
  const inbox: WorkerMessage[] = [];
  let failure: Error | null = null;
  let stopped = false;
  // The thread answered its job (the last message of every job): it can take another.
  let answered = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const onAbort = () => {
    failure ??= options.signal.reason as Error;
    notify();
  };
  const onMessage = (message: WorkerMessage) => {
    if (message.type !== "batch") answered = true;
    inbox.push(message);
    notify();
  };
  // A worker can throw anything; what it throws arrives as it is. Node's own errors (its code
  // ERR_WORKER_OUT_OF_MEMORY) may come from another realm, where instanceof Error is false.
  const onError = (error: unknown) => {
    failure ??= isNativeError(error) ? error : new Error(String(error));
    notify();
  };
  const onExit = () => {
    stopped = true;
    notify();
  };
  worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  options.signal.addEventListener("abort", onAbort, { once: true });
  worker.postMessage({ type: "job", job } satisfies ThreadCommand);
  const releaseHeapLimit = holdHeapGrowthLimit();
  try {
    for (;;) {
      while (inbox.length === 0 && failure === null && !stopped && !options.signal.aborted) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      options.signal.throwIfAborted();
      const message = inbox.shift();
      if (!message) throw failureOf(failure, options.heapMb);
      if (message.type === "done") return { rows: message.rows, encoding: message.encoding };
      if (message.type === "columns") {
        yield JSON.parse(message.json) as never;
        continue;
      }
      if (message.type === "refused") throw new ServiceError(message.status, message.message);
      const batch = JSON.parse(message.json) as ParsedEntry[];
      worker.postMessage({ type: "more" } satisfies ThreadCommand);
      yield batch;
    }
  } finally {
    releaseHeapLimit();
    options.signal.removeEventListener("abort", onAbort);
    worker.off("message", onMessage).off("error", onError).off("exit", onExit);
    // A thread stopped mid-job (the caller stopped reading, the client left) is not reused.
    if (answered && failure === null && !stopped) await releaseThread(worker, options.heapMb);
    else await worker.terminate();
  }
}

function failureOf(error: Error | null, heapMb: number): Error {
  if (error && "code" in error && error.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new ServiceError(
      413,
      `reading the document needs more than ${heapMb} MB of memory, the limit for one import; split it into smaller files or export it as CSV`,
    );
  }
  return error ?? new Error("the document parser thread stopped without an answer");
}

/**
 * The header, first rows and column reading of a spooled document (readColumns), read in a
 * worker thread like an import; a document refused as a whole is a ServiceError with its status.
 */
export async function columnsInThread(
  job: Omit<ParseJob, "columns" | "countOnly">,
  sampleRows: number,
  options: ParseThreadOptions,
): Promise<ColumnsRead> {
  const reading = parseInThread({ ...job, columns: { sampleRows } }, options);
  try {
    const step = await reading.next();
    if (step.done) throw new Error("the document parser thread stopped without the columns");
    return step.value as unknown as ColumnsRead;
  } finally {
    await reading.return({ rows: 0, encoding: null });
  }
}
