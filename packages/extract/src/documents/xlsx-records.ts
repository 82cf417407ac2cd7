import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DocumentError, MalformedDocumentError } from "./document-errors.js";
import type { TableRecord } from "./document-row.js";
import { checkXlsxZip } from "./xlsx-guard.js";
import { openPackage, workbookParts } from "./xlsx-package.js";
import { readSharedStrings } from "./xlsx-shared-strings.js";
import { sheetRows } from "./xlsx-sheet.js";
import { readDateStyles } from "./xlsx-styles.js";

/**
 * Rows of the first worksheet. The ZIP checks need the central directory, which is at the end,
 * so the workbook is read from `file` when it is one, else copied to a temporary file first (a
 * file also keeps a large workbook out of memory).
 */
export async function* xlsxRecords(
  chunks: AsyncIterable<Buffer>,
  file: string | null,
): AsyncGenerator<TableRecord> {
  if (file !== null) {
    yield* readWorkbookFile(file);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), "catalog-xlsx-"));
  const path = join(dir, "upload.xlsx");
  try {
    await pipeline(Readable.from(chunks), createWriteStream(path));
    yield* readWorkbookFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * After the ZIP checks, the workbook, its relationships, the styles and the shared strings are
 * read whole (each within `heldPartBytes`), then the first sheet is streamed a row at a time.
 * The parts are found through the central directory, in any archive order: nothing is unpacked
 * to disk.
 */
async function* readWorkbookFile(path: string): AsyncGenerator<TableRecord> {
  await checkXlsxZip(path);
  let pkg: Awaited<ReturnType<typeof openPackage>> | null = null;
  try {
    pkg = await openPackage(path);
    const parts = await workbookParts(pkg);
    if (parts.firstSheet === null) return;
    const sheet = pkg.entries.get(parts.firstSheet.toLowerCase());
    if (!sheet) return;
    const sharedStrings = await readSharedStrings(pkg, parts.sharedStrings);
    const dateStyles = await readDateStyles(pkg, parts.styles);
    yield* sheetRows(pkg.zip, sheet, { sharedStrings, dateStyles, date1904: parts.date1904 });
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new MalformedDocumentError(
      `the XLSX file could not be read (${message}); ` +
        "save it again from the spreadsheet program or export it as CSV",
    );
  } finally {
    pkg?.zip.close();
  }
}
