import { parentPort } from "node:worker_threads";
import {
  DocumentError,
  parseDocumentFile,
  readColumnsFile,
  type DocumentMeta,
  type DocumentRow,
  type EncodingChoice,
} from "@catalog/extract/documents";
import type { ImportItem } from "@catalog/db";
import { storedDescription } from "@catalog/db/description";
import { toImportItem } from "./candidate.js";
import type {
  ColumnsRead,
  ParseJob,
  ParsedEntry,
  ThreadCommand,
  WorkerMessage,
} from "./parse-thread.js";

/**
 * Runs in a worker thread (parse-thread.ts): parses a spooled document and posts its rows as
 * import items, a batch at a time, as JSON text. At most `CREDITS` batches are in flight: the
 * thread waits for the gateway to take one before it reads further, so a document is never
 * parsed faster than the database takes it. A thread serves one job at a time and may be given
 * another once it has answered (parse-threads.ts keeps it for the next).
 */
const port = parentPort!;

const CREDITS = 2;
let credits = CREDITS;
let wake: (() => void) | null = null;
port.on("message", (command: ThreadCommand) => {
  if (command.type === "job") {
    void run(command.job);
    return;
  }
  credits++;
  wake?.();
});

async function post(message: WorkerMessage): Promise<void> {
  while (credits === 0)
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  credits--;
  port.postMessage(message);
}

/**
 * A row as an import item, its description already in the stored form: cleaning HTML is the
 * costliest per-row work of an import, and here it runs beside the gateway's main thread, which
 * plans with `descriptionsStored`.
 */
function entryOf(parsed: DocumentRow): ParsedEntry {
  if (!parsed.ok) return { row: parsed.row, error: parsed.error };
  const item: ImportItem | { error: string } = toImportItem(parsed.product);
  if ("error" in item) return { row: parsed.row, error: `row ${parsed.row}: ${item.error}` };
  if (typeof item.fields.description === "string")
    item.fields.description = storedDescription(item.fields.description);
  return { row: parsed.row, item };
}

async function columns(job: ParseJob, sampleRows: number): Promise<void> {
  const read = await readColumnsFile(job.path, job.meta, { sampleRows });
  const answer: ColumnsRead = {
    format: read.format,
    layout: read.layout,
    headers: read.headers,
    rows: read.rows,
    assignments: read.assignments.map(({ index, header, field, name }) => ({
      index,
      header,
      field,
      name,
    })),
    recognised: read.recognised,
    needsMapping: read.needsMapping,
    preview: read.preview.map(entryOf),
  };
  port.postMessage({ type: "columns", json: JSON.stringify(answer) } satisfies WorkerMessage);
}

async function rows(job: ParseJob): Promise<void> {
  let batch: string[] = [];
  let chars = 0;
  let count = 0;
  let encoding: EncodingChoice | null = null;
  const meta: DocumentMeta = {
    ...job.meta,
    onEncoding: (choice) => {
      encoding = choice;
    },
  };
  for await (const parsed of parseDocumentFile(job.path, meta)) {
    count++;
    if (job.countOnly) continue;
    const json = JSON.stringify(entryOf(parsed));
    batch.push(json);
    chars += json.length;
    if (batch.length >= job.batchRows || chars >= job.batchChars) {
      await post({ type: "batch", json: `[${batch.join(",")}]` });
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) await post({ type: "batch", json: `[${batch.join(",")}]` });
  port.postMessage({ type: "done", rows: count, encoding } satisfies WorkerMessage);
}

/**
 * One job: its answer ends with "done", "columns" or "refused". Any other error is thrown out of
 * the thread, which then stops (the gateway reads it as the thread's error).
 */
async function run(job: ParseJob): Promise<void> {
  credits = CREDITS;
  // Any temporary file the parser writes goes in the upload's own spool and goes when the spool
  // does (a spooled XLSX is read in place, through its central directory: it needs none).
  process.env.TMPDIR = job.tmpDir;
  try {
    if (job.columns) await columns(job, job.columns.sampleRows);
    else await rows(job);
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    port.postMessage({
      type: "refused",
      status: error.status,
      message: error.message,
    } satisfies WorkerMessage);
  }
}
