import { detectLayout, indexHeaders } from "./column-names.js";
import { EmptyDocumentError, MalformedDocumentError } from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";
import { clip } from "./price-fields.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { recogniseColumns, type ColumnMapping } from "./column-mapping.js";
import { applyMapping } from "./mapped-columns.js";
import { genericTableMapper } from "./generic-table-mapper.js";
import { googleFeedMapper, isGoogleFeedHeader } from "./google-feed-mapper.js";
import { shopifyMapper } from "./shopify-mapper.js";
import { woocommerceMapper } from "./woocommerce-mapper.js";
import { magentoMapper } from "./magento-mapper.js";
import { prestashopMapper } from "./prestashop-mapper.js";
import { bigcommerceMapper } from "./bigcommerce-mapper.js";

export interface TableOptions {
  defaultCurrency: string | null;
  /** CSV rows must have as many cells as the header; spreadsheet rows are sparse by nature. */
  checkWidth: boolean;
  /** The uploader's reading of the columns: the table is then read by the generic mapper. */
  mapping?: ColumnMapping | undefined;
}

/**
 * Spreadsheet rows to products. The header is the first non-empty row; empty rows are skipped
 * (they keep their row numbers); a row of the wrong width is reported and skipped, since its
 * cells would land in the wrong columns.
 */
export async function* tableRows(
  records: AsyncIterable<TableRecord>,
  options: TableOptions,
): AsyncGenerator<DocumentRow> {
  let headers: string[] | null = null;
  let mapper: TableMapper | null = null;
  let dataRows = 0;
  for await (const record of records) {
    if (isBlank(record.cells)) continue;
    if (!headers || !mapper) {
      if (record.undecodable) {
        throw new MalformedDocumentError(
          `the header row holds bytes that are not valid ${record.undecodable} text (${shown(record.cells)}); ` +
            "import the file again naming its encoding, or save it as UTF-8",
        );
      }
      headers = record.cells.map((c) => c.trim());
      mapper = mapperFor(headers, options.defaultCurrency, options.mapping);
      continue;
    }
    if (++dataRows > DOCUMENT_LIMITS.rows) throw overLimit.rows();
    if (record.undecodable) {
      yield { row: record.row, ok: false, error: undecodableRow(record, headers) };
      continue;
    }
    const width = widthProblem(record, headers.length);
    if (options.checkWidth && width) {
      yield { row: record.row, ok: false, error: width };
      continue;
    }
    yield* mapper.push(record);
  }
  if (!headers || !mapper)
    throw new EmptyDocumentError(
      "the file has no rows; it needs a header row and one row per product",
    );
  if (dataRows === 0) throw new EmptyDocumentError("the file has a header row but no product rows");
  yield* mapper.end();
}

/**
 * How a table with these headers is read: as `mapping` says (always the generic mapper), else by
 * the layout its headers show.
 */
function mapperFor(
  headers: string[],
  defaultCurrency: string | null,
  mapping?: ColumnMapping,
): TableMapper {
  if (mapping) return genericTableMapper(headers, applyMapping(headers, mapping), defaultCurrency);
  const index = indexHeaders(headers);
  const layout = detectLayout(index);
  switch (layout) {
    case "magento":
      return magentoMapper(headers, index, defaultCurrency);
    case "prestashop":
      return prestashopMapper(headers, index, defaultCurrency);
    case "bigcommerce":
    case "bigcommerce-v3":
      return bigcommerceMapper(layout, headers, index, defaultCurrency);
    case "shopify":
      return shopifyMapper(headers, index, defaultCurrency);
    case "woocommerce":
      return woocommerceMapper(headers, index, defaultCurrency);
    default:
      if (isGoogleFeedHeader(headers)) return googleFeedMapper(headers, defaultCurrency);
      return genericTableMapper(headers, recogniseColumns(headers), defaultCurrency);
  }
}

function isBlank(cells: readonly string[]): boolean {
  for (const c of cells) if (c.trim() !== "") return false;
  return true;
}

/**
 * A row with bytes its encoding cannot decode is not imported: its text would be stored with "�" in
 * it.
 */
function undecodableRow(record: TableRecord, headers: readonly string[]): string {
  const at = record.cells.findIndex((cell) => cell.includes("\ufffd"));
  const column = headers[at] ? `column "${clip(headers[at])}"` : `cell ${at + 1}`;
  return (
    `row ${record.row}: ${column} holds bytes that are not valid ${record.undecodable} text (${shown([record.cells[at]!])}), ` +
    "so the row was not imported; correct it, or import the file again naming its encoding"
  );
}

function shown(cells: readonly string[]): string {
  const cell = cells.find((c) => c.includes("\ufffd")) ?? "";
  const at = cell.indexOf("\ufffd");
  const from = Math.max(0, at - 30);
  return `"${from > 0 ? "…" : ""}${clip(cell.slice(from).trim(), 60)}"`;
}

function widthProblem(record: TableRecord, columns: number): string | null {
  const n = record.cells.length;
  if (n === columns) return null;
  // Trailing empty cells (a spare delimiter at the end of the line) change nothing.
  if (n > columns && record.cells.slice(columns).every((c) => c.trim() === "")) return null;
  return `row ${record.row}: ${n} cells where the header has ${columns} columns; a delimiter is missing or extra, or a quote is not closed`;
}
