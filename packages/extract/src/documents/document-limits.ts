import { DocumentLimitError, formatBytes } from "./document-errors.js";

/**
 * What one document may hold. Each bounds memory somewhere a hostile or broken file could make
 * it grow without end (a header of a million columns, a line that never ends, JSON nested a
 * hundred thousand deep, shared strings that unpack two hundredfold); all are far beyond what a
 * store's export holds. Checked while streaming, so a file is refused as soon as it goes past one.
 */
export const DOCUMENT_LIMITS = {
  /** Data rows (CSV, TSV, XLSX), array items (JSON) or lines (NDJSON). */
  rows: 1_000_000,
  /** Cells in one row, keys in one JSON object, or attributes of one XML element. */
  columns: 2_000,
  /** Characters in one cell, or in one JSON string or key. */
  cellChars: 1024 * 1024,
  /** Characters in one CSV/TSV record or XLSX row, NDJSON line or JSON array item. */
  recordChars: 8 * 1024 * 1024,
  /** Levels of JSON arrays and objects, or of XML elements, the outermost counting as one. */
  depth: 32,
  /**
   * Unpacked bytes of each XLSX part that is held in memory whole while the sheet is read: the
   * shared strings, the styles, the workbook and its relationships.
   */
  heldPartBytes: 32 * 1024 * 1024,
  /** Unpacked bytes of all the parts of an XLSX file. */
  unpackedBytes: 200 * 1024 * 1024,
} as const;

export type DocumentLimitName = keyof typeof DOCUMENT_LIMITS;

const count = (n: number) => n.toLocaleString("en-US");

/** Refusals naming the limit and its value; `where` says where it was hit ("row 3", "item 7"). */
export const overLimit = {
  rows: () =>
    new DocumentLimitError(
      "rows",
      413,
      `the document has more than ${count(DOCUMENT_LIMITS.rows)} rows, the limit for one import; split it into smaller files`,
    ),
  columns: (where: string, what: "cells" | "keys") =>
    new DocumentLimitError(
      "columns",
      413,
      what === "cells"
        ? `${where} has more than ${count(DOCUMENT_LIMITS.columns)} cells, the limit for one row; is the delimiter right?`
        : `${where} has an object with more than ${count(DOCUMENT_LIMITS.columns)} keys, the limit for one object`,
    ),
  cellChars: (where: string, hint = "") =>
    new DocumentLimitError(
      "cellChars",
      413,
      `${where} has a value longer than ${count(DOCUMENT_LIMITS.cellChars)} characters, the limit for one cell or string${hint}`,
    ),
  recordChars: (where: string, hint = "") =>
    new DocumentLimitError(
      "recordChars",
      413,
      `${where} is longer than ${count(DOCUMENT_LIMITS.recordChars)} characters, the limit for one row, line or item${hint}`,
    ),
  depth: (where: string) =>
    new DocumentLimitError(
      "depth",
      422,
      `${where} nests arrays and objects more than ${DOCUMENT_LIMITS.depth} levels deep, the limit for a JSON document`,
    ),
  xmlDepth: (where: string) =>
    new DocumentLimitError(
      "depth",
      422,
      `${where} nests elements more than ${DOCUMENT_LIMITS.depth} levels deep, the limit for an XML document`,
    ),
  xmlAttributes: (where: string) =>
    new DocumentLimitError(
      "columns",
      413,
      `${where} has more than ${count(DOCUMENT_LIMITS.columns)} attributes, the limit for one element`,
    ),
  heldPartBytes: (part: string) =>
    new DocumentLimitError(
      "heldPartBytes",
      413,
      `the XLSX file's part "${part}" unpacks to more than ${formatBytes(DOCUMENT_LIMITS.heldPartBytes)}, the limit for the parts read whole ` +
        "(shared strings, styles, workbook); export the sheet as CSV",
    ),
  unpackedBytes: () =>
    new DocumentLimitError(
      "unpackedBytes",
      413,
      `the XLSX file unpacks to more than ${formatBytes(DOCUMENT_LIMITS.unpackedBytes)}, the limit for a workbook; split the workbook or export it as CSV`,
    ),
};
