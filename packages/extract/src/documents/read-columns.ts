import { recogniseColumns, type ColumnAssignment, type ColumnMapping } from "./column-mapping.js";
import { detectLayout, indexHeaders } from "./column-names.js";
import { EmptyDocumentError } from "./document-errors.js";
import type { DocumentRow, TableRecord } from "./document-row.js";
import { applyMapping } from "./mapped-columns.js";
import { tableRows } from "./table-rows.js";

/** A document's columns as the uploader is shown them before importing. */
export interface DocumentColumns {
  format: "csv" | "xlsx" | "json" | "ndjson" | "xml";
  /** "shopify", "woocommerce", "generic"; "json" and "ndjson" for documents without columns. */
  layout: string;
  /** The header row, each trimmed; empty for JSON and NDJSON. */
  headers: string[];
  /** The first data rows (blank rows skipped), as the spreadsheet numbers them. */
  rows: { row: number; cells: string[] }[];
  /** How each column is read: as `meta.mapping` says, else automatically. */
  assignments: ColumnAssignment[];
  /** Per header index: the automatic reading found a field for it (not just an attribute). */
  recognised: boolean[];
  /** True when the reading has no title column (the file needs a mapping to import). */
  needsMapping: boolean;
  /** The products the sample rows read as (none when `needsMapping`). */
  preview: DocumentRow[];
}

export interface ReadColumnsOptions {
  sampleRows?: number;
}

interface SampleOptions {
  mapping: ColumnMapping | undefined;
  defaultCurrency: string | null;
  sampleRows: number;
  /** The text may be the first part of a file: a last row cut short is left out. */
  cutShort: boolean;
}

/** The header and first rows of a table, and the products they read as (readColumns). */
export async function sampleTable(
  format: "csv" | "xlsx",
  records: AsyncGenerator<TableRecord>,
  { mapping, defaultCurrency, sampleRows, cutShort }: SampleOptions,
): Promise<DocumentColumns> {
  let headers: string[] | null = null;
  const rows: TableRecord[] = [];
  let ended = true;
  for await (const record of records) {
    if (record.cells.every((c) => c.trim() === "")) continue;
    if (!headers) {
      headers = record.cells.map((c) => c.trim());
      continue;
    }
    if (rows.length >= sampleRows) {
      ended = false;
      break;
    }
    rows.push(record);
  }
  if (!headers)
    throw new EmptyDocumentError(
      "the file has no rows; it needs a header row and one row per product",
    );
  // The first part of a bigger file ends mid-row: that row is left out.
  const last = rows.at(-1);
  if (cutShort && ended && last && last.cells.length < headers.length) rows.pop();
  const layout = mapping ? "generic" : detectLayout(indexHeaders(headers));
  const automatic = recogniseColumns(headers);
  const assignments = mapping ? applyMapping(headers, mapping, { needTitle: false }) : automatic;
  const recognised = headers.map(() => false);
  for (const a of automatic) if (a.field !== "attribute") recognised[a.index] = true;
  const needsMapping =
    (mapping !== undefined || layout === "generic") &&
    !assignments.some((a) => a.field === "title");
  // The sample rows are read exactly as an import reads them (blank, undecodable and
  // wrong-width rows included).
  const preview: DocumentRow[] = [];
  if (!needsMapping && rows.length > 0) {
    const sample = (async function* () {
      yield { row: 0, cells: headers };
      yield* rows;
    })();
    const options = { defaultCurrency, checkWidth: format === "csv", mapping };
    for await (const row of tableRows(sample, options)) preview.push(row);
  }
  return {
    format,
    layout,
    headers,
    rows: rows.map(({ row, cells }) => ({ row, cells })),
    assignments,
    recognised,
    needsMapping,
    preview,
  };
}
