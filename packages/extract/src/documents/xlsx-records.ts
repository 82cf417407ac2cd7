import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type ExcelJS from "exceljs";
import { DocumentError, MalformedDocumentError } from "./document-errors.js";
import type { TableRecord } from "./document-row.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";
import { checkXlsxZip } from "./xlsx-guard.js";

/**
 * Rows of the first worksheet. The ZIP checks need the central directory, which is at the end,
 * so the workbook is read from `file` when it is one, else copied to a temporary file first (a
 * file also keeps a large workbook out of memory).
 */
export async function* xlsxRecords(chunks: AsyncIterable<Buffer>, file: string | null): AsyncGenerator<TableRecord> {
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

async function* readWorkbookFile(path: string): AsyncGenerator<TableRecord> {
  const file = { stream: null as ReturnType<typeof createReadStream> | null };
  try {
    await checkXlsxZip(path);
    file.stream = createReadStream(path);
    yield* readFirstSheet(file.stream);
  } finally {
    file.stream?.destroy();
  }
}

async function* readFirstSheet(input: Readable): AsyncGenerator<TableRecord> {
  // Loaded on the first workbook only: it takes longer to load than a CSV of thousands of rows to read.
  const { default: excel } = await import("exceljs");
  const reader = new excel.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit", sharedStrings: "cache", hyperlinks: "ignore", styles: "cache", entries: "ignore",
  });
  let counted = 0;
  try {
    for await (const sheet of reader) {
      // Worksheets arrive in archive order; the first tab is the workbook's first <sheet>.
      const firstName = firstSheetName(reader);
      if (firstName !== null && sheetName(sheet) !== null && sheetName(sheet) !== firstName) continue;
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values : [];
        counted++;
        const number = Number.isFinite(row.number) && row.number > 0 ? row.number : counted;
        // A cell reference far to the right ("ZZZZ1") makes a sparse array this long.
        if (values.length - 1 > DOCUMENT_LIMITS.columns) throw overLimit.columns(`row ${number}`, "cells");
        const cells: string[] = [];
        for (let i = 1; i < values.length; i++) {
          const text = cellText(values[i]);
          if (text.length > DOCUMENT_LIMITS.cellChars) throw overLimit.cellChars(`row ${number}`);
          cells.push(text);
        }
        yield { row: number, cells };
      }
      return;
    }
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new MalformedDocumentError(`the XLSX file could not be read (${message}); save it again from the spreadsheet program or export it as CSV`);
  }
}

function firstSheetName(reader: object): string | null {
  const model: unknown = (reader as { model?: unknown }).model;
  const sheets = typeof model === "object" && model !== null ? (model as { sheets?: unknown }).sheets : undefined;
  const first: unknown = Array.isArray(sheets) ? sheets[0] : undefined;
  const name = typeof first === "object" && first !== null ? (first as { name?: unknown }).name : undefined;
  return typeof name === "string" ? name : null;
}

function sheetName(sheet: object): string | null {
  const name = (sheet as { name?: unknown }).name;
  return typeof name === "string" ? name : null;
}

/** What the cell shows, as text: rich text joined, formulas by their result, dates as ISO dates. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Math.round(value * 1e10) / 1e10);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("hyperlink" in value) {
    const text: unknown = value.text;
    if (typeof text === "string" && text !== "") return text;
    if (typeof text === "object" && text !== null && "richText" in text) return cellText(text as ExcelJS.CellRichTextValue);
    return value.hyperlink;
  }
  if ("result" in value) return value.result === undefined ? "" : cellText(value.result);
  if ("error" in value) return "";
  return "";
}
