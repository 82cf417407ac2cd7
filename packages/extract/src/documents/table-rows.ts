import { detectLayout, indexHeaders } from "./column-names.js";
import { EmptyDocumentError } from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { genericTableMapper } from "./generic-table-mapper.js";
import { shopifyMapper } from "./shopify-mapper.js";
import { woocommerceMapper } from "./woocommerce-mapper.js";

export interface TableOptions {
  defaultCurrency: string | null;
  /** CSV rows must have as many cells as the header; spreadsheet rows are sparse by nature. */
  checkWidth: boolean;
}

/**
 * Spreadsheet rows to products. The header is the first non-empty row; empty rows are skipped
 * (they keep their row numbers); a row of the wrong width is reported and skipped, since its
 * cells would land in the wrong columns.
 */
export async function* tableRows(records: AsyncIterable<TableRecord>, options: TableOptions): AsyncGenerator<DocumentRow> {
  let headers: string[] | null = null;
  let mapper: TableMapper | null = null;
  let dataRows = 0;
  for await (const record of records) {
    if (isBlank(record.cells)) continue;
    if (!headers || !mapper) {
      headers = record.cells.map((c) => c.trim());
      mapper = mapperFor(headers, options.defaultCurrency);
      continue;
    }
    if (++dataRows > DOCUMENT_LIMITS.rows) throw overLimit.rows();
    const width = widthProblem(record, headers.length);
    if (options.checkWidth && width) {
      yield { row: record.row, ok: false, error: width };
      continue;
    }
    yield* mapper.push(record);
  }
  if (!headers || !mapper) throw new EmptyDocumentError("the file has no rows; it needs a header row and one row per product");
  if (dataRows === 0) throw new EmptyDocumentError("the file has a header row but no product rows");
  yield* mapper.end();
}

function mapperFor(headers: string[], defaultCurrency: string | null): TableMapper {
  const index = indexHeaders(headers);
  switch (detectLayout(index)) {
    case "shopify": return shopifyMapper(headers, index, defaultCurrency);
    case "woocommerce": return woocommerceMapper(headers, index, defaultCurrency);
    default: return genericTableMapper(headers, defaultCurrency);
  }
}

function isBlank(cells: readonly string[]): boolean {
  for (const c of cells) if (c.trim() !== "") return false;
  return true;
}

function widthProblem(record: TableRecord, columns: number): string | null {
  const n = record.cells.length;
  if (n === columns) return null;
  // Trailing empty cells (a spare delimiter at the end of the line) change nothing.
  if (n > columns && record.cells.slice(columns).every((c) => c.trim() === "")) return null;
  return `row ${record.row}: ${n} cells where the header has ${columns} columns; a delimiter is missing or extra, or a quote is not closed`;
}
