import { createReadStream } from "node:fs";
import { limitBytes, readHead, type ByteInput } from "./byte-source.js";
import { currencyCode } from "./cell-values.js";
import { detectDelimiter } from "./delimited-parser.js";
import { delimitedRecords } from "./delimited-records.js";
import { EmptyDocumentError } from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";
import type { DocumentMeta, DocumentRow } from "./document-row.js";
import { jsonItems, ndjsonLines } from "./json-items.js";
import { jsonProductRow } from "./json-product.js";
import { sniffFormat } from "./sniff-format.js";
import { tableRows } from "./table-rows.js";
import { decodeText, type TextEncodingName } from "./text-encoding.js";
import { xlsxRecords } from "./xlsx-records.js";

export { DOCUMENT_LIMITS, type DocumentLimitName } from "./document-limits.js";
export {
  DocumentError, DocumentLimitError, DocumentTooLargeError, EmptyDocumentError, MalformedDocumentError, UnsupportedDocumentError,
} from "./document-errors.js";
export type { DocumentMeta, DocumentRow } from "./document-row.js";
export type { ByteInput } from "./byte-source.js";

/** Enough to see a header line, a BOM, a file signature or the first NDJSON lines. */
const HEAD_BYTES = 64 * 1024;

/**
 * Reads a product document (CSV, TSV, XLSX, JSON array, NDJSON) and yields one row per product
 * as soon as it is complete, reading more input only when asked for the next row. Problems with
 * one row are `ok: false` rows; problems with the whole document are thrown as DocumentError
 * subclasses, each with the HTTP status to answer.
 */
export function parseDocument(input: ByteInput, meta: DocumentMeta): AsyncGenerator<DocumentRow> {
  return parse(input, meta, null);
}

/** parseDocument for a document in a file: an XLSX is then read in place rather than copied. */
export function parseDocumentFile(path: string, meta: DocumentMeta): AsyncGenerator<DocumentRow> {
  return parse(createReadStream(path), meta, path);
}

async function* parse(input: ByteInput, meta: DocumentMeta, file: string | null): AsyncGenerator<DocumentRow> {
  const { head, chunks, close } = await readHead(limitBytes(input, meta.maxBytes), HEAD_BYTES);
  try {
    if (head.length === 0) throw new EmptyDocumentError("the file is empty");
    const sniffed = sniffFormat(head, meta);
    const defaultCurrency = meta.currency ? currencyCode(meta.currency) : null;
    if (sniffed.format === "zip") {
      yield* tableRows(xlsxRecords(chunks, file), { defaultCurrency, checkWidth: false });
      return;
    }
    if (sniffed.text.trim() === "" && head.length < HEAD_BYTES) throw new EmptyDocumentError("the file is empty (only blank space)");
    const text = decodeText(chunks, sniffed.encoding);
    if (sniffed.format === "delimited") {
      const { records } = delimitedRecords(text, sniffed.text, prefersTab(meta));
      yield* tableRows(records, { defaultCurrency, checkWidth: true });
    } else if (sniffed.format === "json") {
      let n = 0;
      for await (const item of jsonItems(text)) {
        if (++n > DOCUMENT_LIMITS.rows) throw overLimit.rows();
        yield jsonProductRow(item, n, `item ${n}`, defaultCurrency);
      }
      if (n === 0) throw new EmptyDocumentError("the JSON array is empty; it should hold one object per product");
    } else {
      let n = 0;
      for await (const line of ndjsonLines(text)) {
        if (++n > DOCUMENT_LIMITS.rows) throw overLimit.rows();
        yield "error" in line ? { row: line.line, ok: false, error: line.error } : jsonProductRow(line.value, line.line, `line ${line.line}`, defaultCurrency);
      }
      if (n === 0) throw new EmptyDocumentError("the NDJSON file has no lines; it should hold one JSON object per line");
    }
  } finally {
    await close();
  }
}

export interface DocumentInfo {
  format: "xlsx" | "csv" | "json" | "ndjson";
  encoding: TextEncodingName | null;
  /** For CSV/TSV only. */
  delimiter: string | null;
}

/** What parseDocument would read the document as, from its first bytes (64 KB is plenty). */
export function describeDocument(head: Buffer, meta: Pick<DocumentMeta, "filename" | "contentType">): DocumentInfo {
  const sniffed = sniffFormat(head, meta);
  if (sniffed.format === "zip") return { format: "xlsx", encoding: null, delimiter: null };
  if (sniffed.format === "delimited") {
    return { format: "csv", encoding: sniffed.encoding, delimiter: detectDelimiter(sniffed.text, prefersTab(meta)).delimiter };
  }
  return { format: sniffed.format, encoding: sniffed.encoding, delimiter: null };
}

function prefersTab(meta: Pick<DocumentMeta, "filename" | "contentType">): boolean {
  return /\.tsv$/i.test(meta.filename ?? "") || /tab-separated/i.test(meta.contentType ?? "");
}
