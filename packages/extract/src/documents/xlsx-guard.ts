import { open } from "node:fs/promises";
import yauzl from "yauzl";
import {
  DocumentLimitError,
  MalformedDocumentError,
  UnsupportedDocumentError,
} from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";

/**
 * The parts held in memory whole while the sheet is read, by their usual names (xlsx-package.ts
 * checks the same limit again for parts a workbook keeps under other names).
 */
const HELD_PARTS = new Set([
  "xl/sharedStrings.xml",
  "xl/styles.xml",
  "xl/workbook.xml",
  "xl/_rels/workbook.xml.rels",
]);
/** Spreadsheet XML compresses 10-20:1; far beyond this is a bomb. Small entries are exempt. */
const MAX_RATIO = 100;
const RATIO_MIN_BYTES = 1024 * 1024;
/** A data descriptor after an entry's data: 12-24 bytes with signature and ZIP64 sizes. */
const MAX_DESCRIPTOR = 24;

/**
 * Checks a ZIP before any part of it is parsed. Adding up the sizes the central directory
 * declares is not enough: this also requires every byte before the central directory to belong
 * to a listed entry (no hidden entries, which a reader walking the *local* headers would inflate
 * unchecked), the local headers to agree with the central directory, and each entry to inflate
 * to exactly its declared size (yauzl checks that while reading). The reader (xlsx-package.ts)
 * then finds parts through the central directory only. Throws UnsupportedDocumentError for a
 * ZIP that is not a workbook.
 */
export async function checkXlsxZip(path: string): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch (error) {
    throw new MalformedDocumentError(
      `the XLSX file is damaged and cannot be opened as a ZIP archive (${messageOf(error)}); save it again from the spreadsheet program`,
    );
  }
  try {
    const entries: yauzl.Entry[] = [];
    const names = new Set<string>();
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      if (names.has(entry.fileName))
        throw new MalformedDocumentError(
          `the XLSX file is damaged: "${entry.fileName}" appears twice in the archive`,
        );
      names.add(entry.fileName);
      total += entry.uncompressedSize;
      if (total > DOCUMENT_LIMITS.unpackedBytes) throw overLimit.unpackedBytes();
      // These parts are held in memory whole while the sheet is read (cells point into the
      // shared strings), so each is bounded on its own. Declared sizes can be trusted here: the
      // layout check and the inflation below make the archive keep its word.
      if (HELD_PARTS.has(entry.fileName) && entry.uncompressedSize > DOCUMENT_LIMITS.heldPartBytes)
        throw overLimit.heldPartBytes(entry.fileName);
      if (
        entry.uncompressedSize > RATIO_MIN_BYTES &&
        entry.uncompressedSize > entry.compressedSize * MAX_RATIO
      ) {
        throw new MalformedDocumentError(
          `the XLSX file is refused: "${entry.fileName}" would unpack ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))} times its size (a ZIP bomb?); export the sheet as CSV`,
        );
      }
      if (entry.isEncrypted())
        throw new MalformedDocumentError(
          "the XLSX file is password-protected; remove the password and upload it again",
        );
      entries.push(entry);
    }
    if (!names.has("xl/workbook.xml"))
      throw new UnsupportedDocumentError(notWorkbookMessage(names));
    await checkLayout(zip, entries, path);
    for (const entry of entries) {
      const stream = await zip.openReadStreamPromise(entry);
      for await (const chunk of stream) void chunk;
    }
  } catch (error) {
    if (
      error instanceof MalformedDocumentError ||
      error instanceof UnsupportedDocumentError ||
      error instanceof DocumentLimitError
    )
      throw error;
    throw new MalformedDocumentError(
      `the XLSX file is damaged (${messageOf(error)}); save it again from the spreadsheet program`,
    );
  } finally {
    zip.close();
  }
}

async function checkLayout(
  zip: yauzl.ZipFile,
  entries: yauzl.Entry[],
  path: string,
): Promise<void> {
  const sorted = [...entries].sort(
    (a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader,
  );
  let expectedStart = 0;
  const file = await open(path, "r");
  try {
    for (const entry of sorted) {
      const gap = entry.relativeOffsetOfLocalHeader - expectedStart;
      if (gap < 0 || gap > (expectedStart === 0 ? 0 : MAX_DESCRIPTOR)) throw hidden();
      const header = await zip.readLocalFileHeaderPromise(entry);
      const deferredSizes = (header.generalPurposeBitFlag & 0x08) !== 0;
      if (
        !deferredSizes &&
        (header.compressedSize !== entry.compressedSize ||
          header.uncompressedSize !== entry.uncompressedSize)
      ) {
        // ZIP64 local headers say 0xFFFFFFFF and carry the sizes in an extra field.
        if (header.compressedSize !== 0xffffffff) throw hidden();
      }
      expectedStart = header.fileDataStart + entry.compressedSize;
    }
    // What follows the last entry (after an optional data descriptor) must be the central
    // directory.
    const tail = Buffer.alloc(MAX_DESCRIPTOR + 4);
    const { bytesRead } = await file.read(tail, 0, tail.length, expectedStart);
    if (!tail.subarray(0, bytesRead).includes(Buffer.from([0x50, 0x4b, 0x01, 0x02])))
      throw hidden();
  } finally {
    await file.close();
  }
}

function hidden(): MalformedDocumentError {
  return new MalformedDocumentError(
    "the XLSX file is refused: its ZIP structure holds data outside the listed entries; save it again from the spreadsheet program",
  );
}

function notWorkbookMessage(names: Set<string>): string {
  const accepted = "upload a CSV, TSV, XLSX, JSON, NDJSON or XML file";
  if (names.has("content.xml") && names.has("mimetype"))
    return `this is an OpenDocument file (.ods), not XLSX; save it as .xlsx or CSV, or ${accepted}`;
  if (names.has("word/document.xml"))
    return `this is a Word document, not a product list; ${accepted}`;
  if (names.has("ppt/presentation.xml"))
    return `this is a PowerPoint file, not a product list; ${accepted}`;
  return `this is a ZIP archive, not an XLSX workbook (no xl/workbook.xml inside); ${accepted}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
