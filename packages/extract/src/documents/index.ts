import { createReadStream } from "node:fs";
import { limitBytes, readHead, type ByteInput } from "./byte-source.js";
import { currencyCode } from "./cell-values.js";
import { detectDelimiter } from "./delimited-parser.js";
import { delimitedRecords } from "./delimited-records.js";
import {
  EmptyDocumentError,
  MalformedDocumentError,
  UnknownEncodingError,
} from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";
import type { DocumentMeta, DocumentRow } from "./document-row.js";
import { jsonItems, ndjsonLines } from "./json-items.js";
import { jsonProductRow } from "./json-product.js";
import { sniffFormat } from "./sniff-format.js";
import { tableRows } from "./table-rows.js";
import { detectEncoding, encodingName, TextDecoding } from "./text-encoding.js";
import { xlsxRecords } from "./xlsx-records.js";
import { mappingNotApplicable } from "./mapped-columns.js";
import { sampleTable, type DocumentColumns, type ReadColumnsOptions } from "./read-columns.js";
import { xmlRows } from "./xml-rows.js";

export { DOCUMENT_LIMITS, type DocumentLimitName } from "./document-limits.js";
export {
  DocumentError,
  DocumentLimitError,
  DocumentTooLargeError,
  EmptyDocumentError,
  MalformedDocumentError,
  UnknownEncodingError,
  UnsupportedDocumentError,
} from "./document-errors.js";
export { encodingName, type EncodingChoice, type EncodingSource } from "./text-encoding.js";
export { RETIRED_CURRENCIES } from "../price/currency-symbols.js";
export type { DocumentMeta, DocumentRow } from "./document-row.js";
export type { ByteInput } from "./byte-source.js";
export type { DocumentColumns, ReadColumnsOptions } from "./read-columns.js";
export { headerKeyOf, SINGLE_VALUE_FIELDS } from "./mapped-columns.js";
export {
  MAPPED_FIELDS,
  type ColumnAssignment,
  type ColumnMapping,
  type ColumnMappingEntry,
  type MappedField,
} from "./column-mapping.js";

/** Enough to see a header line, a BOM, a file signature or the first NDJSON lines. */
const HEAD_BYTES = 64 * 1024;

/**
 * Reads a product document (CSV, TSV, XLSX, JSON array, NDJSON, XML feed or export) and yields one row per product
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

async function* parse(
  input: ByteInput,
  meta: DocumentMeta,
  file: string | null,
): AsyncGenerator<DocumentRow> {
  const named = namedEncoding(meta);
  const { head, chunks, close } = await readHead(limitBytes(input, meta.maxBytes), HEAD_BYTES);
  try {
    if (head.length === 0) throw new EmptyDocumentError("the file is empty");
    const sniffed = sniffFormat(head, meta, named);
    const defaultCurrency = meta.currency ? currencyCode(meta.currency) || null : null;
    if (sniffed.format === "zip") {
      meta.onEncoding?.(null);
      yield* tableRows(xlsxRecords(chunks, file), {
        defaultCurrency,
        checkWidth: false,
        mapping: meta.mapping,
      });
      return;
    }
    if (sniffed.text.trim() === "" && head.length < HEAD_BYTES)
      throw new EmptyDocumentError("the file is empty (only blank space)");
    if (sniffed.format === "delimited") {
      const decoding = new TextDecoding({
        named,
        head: sniffed.encoding,
        legacy: true,
        onChoice: meta.onEncoding,
      });
      const { records } = delimitedRecords(
        decoding,
        decoding.decode(chunks),
        sniffed.text,
        prefersTab(meta),
      );
      yield* tableRows(records, { defaultCurrency, checkWidth: true, mapping: meta.mapping });
      return;
    }
    if (meta.mapping) throw mappingNotApplicable(sniffed.format);
    if (sniffed.format === "xml") {
      meta.onEncoding?.(null);
      const decoding = new TextDecoding({
        named: xmlDeclaredEncoding(sniffed.text),
        head: detectEncoding(head, { legacy: false, atStart: true }),
        legacy: false,
      });
      yield* xmlRows(decoding.decode(chunks), defaultCurrency);
      return;
    }
    // JSON is UTF-8, or UTF-16 when a BOM or its zero bytes say so (RFC 8259): no code pages.
    meta.onEncoding?.(null);
    const decoding = new TextDecoding({
      named: null,
      head: detectEncoding(head, { legacy: false, atStart: true }),
      legacy: false,
    });
    const text = decoding.decode(chunks);
    if (sniffed.format === "json") {
      let n = 0;
      for await (const item of jsonItems(text)) {
        if (++n > DOCUMENT_LIMITS.rows) throw overLimit.rows();
        yield decoding.replaced && holdsReplacement(item)
          ? undecodableItem(n, `item ${n}`)
          : jsonProductRow(item, n, `item ${n}`, defaultCurrency);
      }
      if (n === 0)
        throw new EmptyDocumentError(
          "the JSON array is empty; it should hold one object per product",
        );
    } else {
      let n = 0;
      for await (const line of ndjsonLines(text)) {
        if (++n > DOCUMENT_LIMITS.rows) throw overLimit.rows();
        if ("error" in line) yield { row: line.line, ok: false, error: line.error };
        else if (decoding.replaced && holdsReplacement(line.value))
          yield undecodableItem(line.line, `line ${line.line}`);
        else yield jsonProductRow(line.value, line.line, `line ${line.line}`, defaultCurrency);
      }
      if (n === 0)
        throw new EmptyDocumentError(
          "the NDJSON file has no lines; it should hold one JSON object per line",
        );
    }
  } finally {
    await close();
  }
}

/**
 * The header and the first `sampleRows` data rows of a CSV, TSV or XLSX document and how its
 * columns are read (`meta.mapping`, checked against the headers as an import checks it: a 422
 * naming the column; else automatically), reading no further than that. The input may be the
 * first part of a CSV/TSV file: a last row cut short is dropped. JSON and NDJSON have no columns:
 * their first items are previewed (a mapping for them is a 422).
 */
export function readColumns(
  input: ByteInput,
  meta: DocumentMeta,
  options: ReadColumnsOptions = {},
): Promise<DocumentColumns> {
  return columnsOf(input, meta, null, options.sampleRows ?? 20);
}

/** readColumns for a document in a file (an XLSX is then read in place). */
export function readColumnsFile(
  path: string,
  meta: DocumentMeta,
  options: ReadColumnsOptions = {},
): Promise<DocumentColumns> {
  return columnsOf(createReadStream(path), meta, path, options.sampleRows ?? 20);
}

async function columnsOf(
  input: ByteInput,
  meta: DocumentMeta,
  file: string | null,
  sampleRows: number,
): Promise<DocumentColumns> {
  const named = namedEncoding(meta);
  const { head, chunks, close } = await readHead(limitBytes(input, meta.maxBytes), HEAD_BYTES);
  try {
    if (head.length === 0) throw new EmptyDocumentError("the file is empty");
    const sniffed = sniffFormat(head, meta, named);
    const defaultCurrency = meta.currency ? currencyCode(meta.currency) || null : null;
    const table = { mapping: meta.mapping, defaultCurrency, sampleRows };
    if (sniffed.format === "zip")
      return await sampleTable("xlsx", xlsxRecords(chunks, file), { ...table, cutShort: false });
    if (sniffed.format === "delimited") {
      const decoding = new TextDecoding({ named, head: sniffed.encoding, legacy: true });
      const { records } = delimitedRecords(
        decoding,
        decoding.decode(chunks),
        sniffed.text,
        prefersTab(meta),
        true,
      );
      return await sampleTable("csv", records, { ...table, cutShort: true });
    }
    if (meta.mapping) throw mappingNotApplicable(sniffed.format);
    // JSON and NDJSON: their first items, read as an import reads them.
    const preview: DocumentRow[] = [];
    for await (const row of parse(chunks, meta, null)) {
      preview.push(row);
      if (preview.length >= sampleRows) break;
    }
    const format = sniffed.format;
    return {
      format,
      layout: format,
      headers: [],
      rows: [],
      assignments: [],
      recognised: [],
      needsMapping: false,
      preview,
    };
  } finally {
    await close();
  }
}

/**
 * The encoding an XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`), when
 * it is not UTF-8/UTF-16 (which the BOM or the bytes show); an unknown name is an error.
 */
function xmlDeclaredEncoding(text: string): string | null {
  const declared = /^[\s\ufeff]*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
  if (!declared || /^(utf-?8|utf-?16(le|be)?)$/i.test(declared)) return null;
  const name = encodingName(declared);
  if (!name)
    throw new MalformedDocumentError(
      `the XML declaration names the encoding "${declared.slice(0, 40)}", which cannot be read here; save the file as UTF-8`,
    );
  return name;
}

function namedEncoding(meta: Pick<DocumentMeta, "encoding">): string | null {
  if (meta.encoding === undefined) return null;
  const name = encodingName(meta.encoding);
  if (!name) throw new UnknownEncodingError(meta.encoding);
  return name;
}

/**
 * A JSON item or line whose strings hold bytes that are not UTF-8: not imported, as a CSV row would
 * not be.
 */
function undecodableItem(row: number, label: string): DocumentRow {
  return {
    row,
    ok: false,
    error: `${label}: holds bytes that are not valid UTF-8 (shown as "\ufffd"), so it was not imported; JSON must be UTF-8 (RFC 8259): save the file as UTF-8`,
  };
}

function holdsReplacement(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\ufffd");
  if (Array.isArray(value)) return value.some(holdsReplacement);
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value))
      if (key.includes("\ufffd") || holdsReplacement(item)) return true;
  }
  return false;
}

export interface DocumentInfo {
  format: "xlsx" | "csv" | "json" | "ndjson" | "xml";
  /**
   * CSV/TSV only: the encoding named, or the one the first bytes show ("utf-8" when they are
   * plain ASCII: parseDocument then looks further). Null for XLSX, JSON, NDJSON and XML.
   */
  encoding: string | null;
  /** For CSV/TSV only. */
  delimiter: string | null;
}

/** What parseDocument would read the document as, from its first bytes (64 KB is plenty). */
export function describeDocument(
  head: Buffer,
  meta: Pick<DocumentMeta, "filename" | "contentType" | "encoding">,
): DocumentInfo {
  const sniffed = sniffFormat(head, meta, namedEncoding(meta));
  if (sniffed.format === "zip") return { format: "xlsx", encoding: null, delimiter: null };
  if (sniffed.format === "delimited") {
    return {
      format: "csv",
      encoding: sniffed.encoding ?? "utf-8",
      delimiter: detectDelimiter(sniffed.text, prefersTab(meta)).delimiter,
    };
  }
  return { format: sniffed.format, encoding: null, delimiter: null };
}

function prefersTab(meta: Pick<DocumentMeta, "filename" | "contentType">): boolean {
  return /\.tsv$/i.test(meta.filename ?? "") || /tab-separated/i.test(meta.contentType ?? "");
}
