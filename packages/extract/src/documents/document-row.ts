import type { ProductCandidate } from "../product-candidate.js";

/** One product read from a document, or why the row(s) at `row` could not become one. */
export type DocumentRow =
  | { row: number; ok: true; product: ProductCandidate }
  | { row: number; ok: false; error: string };

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
}

/** A spreadsheet-like row: `row` is the number a spreadsheet would show for it. */
export interface TableRecord {
  row: number;
  cells: string[];
}

/** Turns the data rows of one table (after its header) into products, as soon as each is complete. */
export interface TableMapper {
  push(record: TableRecord): DocumentRow[];
  end(): DocumentRow[];
}
