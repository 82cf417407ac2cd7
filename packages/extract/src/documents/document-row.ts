import type { ProductCandidate } from "../product-candidate.js";
import type { ColumnMapping } from "./column-mapping.js";
import type { EncodingChoice } from "./text-encoding.js";

/** One product read from a document, or why the row(s) at `row` could not become one. */
export type DocumentRow =
  { row: number; ok: true; product: ProductCandidate } | { row: number; ok: false; error: string };

export interface DocumentMeta {
  filename?: string;
  contentType?: string;
  /** Reading stops with DocumentTooLargeError once more than this many bytes have arrived. */
  maxBytes: number;
  /**
   * ISO-4217 code of the store the file came from. Shopify and WooCommerce exports never state
   * their currency; without this, their prices cannot become `Money` (see price-fields.ts).
   */
  currency?: string;
  /**
   * The encoding of a CSV/TSV file as the uploader names it ("windows-1251", "shift_jis",
   * "utf-8"; any name iconv-lite knows), used instead of detecting one. An unknown name is an
   * UnknownEncodingError (400). Not used for XLSX, JSON and NDJSON.
   */
  encoding?: string;
  /**
   * Told the encoding the text is read in, once it is settled (before the first row that needs
   * it, at the latest when the document ends): for CSV/TSV only; null for XLSX, JSON and NDJSON,
   * whose encoding is not a choice (XLSX is a ZIP of UTF-8 XML; JSON is UTF-8, or UTF-16 with a
   * BOM, per RFC 8259).
   */
  onEncoding?: (choice: EncodingChoice | null) => void;
  /**
   * The uploader's reading of a table's columns (CSV, TSV, XLSX): the columns it names are read
   * so, with the generic reading (one product per row, variants grouped by a parent column)
   * instead of a platform's. Not yet applied (issue 31 groundwork).
   */
  mapping?: ColumnMapping;
}

/** A spreadsheet-like row: `row` is the number a spreadsheet would show for it. */
export interface TableRecord {
  row: number;
  cells: string[];
  /** Set when a cell holds bytes the encoding (named here) could not decode (U+FFFD). */
  undecodable?: string;
}

/**
 * Turns the data rows of one table (after its header) into products, as soon as each is complete.
 */
export interface TableMapper {
  push(record: TableRecord): DocumentRow[];
  end(): DocumentRow[];
}
