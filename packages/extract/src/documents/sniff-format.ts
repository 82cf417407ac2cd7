import { MalformedDocumentError, UnsupportedDocumentError } from "./document-errors.js";
import type { DocumentMeta } from "./document-row.js";
import { decodeSample, detectEncoding } from "./text-encoding.js";

export type SniffedFormat =
  | { format: "zip" }
  | {
      format: "delimited" | "json" | "ndjson" | "xml";
      /**
       * What the head shows (named, BOM, UTF-16, UTF-8, detected), or null when it is plain ASCII.
       */
      encoding: string | null;
      /** The head decoded so (plain ASCII when `encoding` is null). */
      text: string;
    };

const ACCEPTED = "upload a CSV, TSV, XLSX, JSON, NDJSON or XML file";

/** Binary formats people upload by mistake, recognised by their first bytes. */
const SIGNATURES: { bytes: number[]; offset?: number; name: string; hint?: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], name: "a PNG image" },
  { bytes: [0xff, 0xd8, 0xff], name: "a JPEG image" },
  { bytes: [0x47, 0x49, 0x46, 0x38], name: "a GIF image" },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, name: "a WebP image" },
  { bytes: [0x25, 0x50, 0x44, 0x46], name: "a PDF document" },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    name: "a legacy Office file (.xls/.doc)",
    hint: "save it as .xlsx or CSV",
  },
  { bytes: [0x1f, 0x8b], name: "a gzip-compressed file", hint: "upload it uncompressed" },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], name: "a 7-Zip archive" },
  { bytes: [0x52, 0x61, 0x72, 0x21], name: "a RAR archive" },
];

/**
 * Decides how to read the document from its first bytes. The content decides; the file name and
 * content type only settle what the bytes leave open (NDJSON vs JSON, a damaged "XLSX").
 * `named` is the encoding the uploader gave (checked), which decodes the head when given.
 */
export function sniffFormat(
  head: Buffer,
  meta: Pick<DocumentMeta, "filename" | "contentType">,
  named: string | null = null,
): SniffedFormat {
  const declared = declaredKind(meta);
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
    return { format: "zip" };
  for (const sig of SIGNATURES) {
    if (startsWith(head, sig.bytes, sig.offset)) {
      if (declared === "xlsx")
        throw new MalformedDocumentError(
          `the file is named as XLSX but is ${sig.name}, not a workbook; ${ACCEPTED}`,
        );
      throw new UnsupportedDocumentError(
        `this is ${sig.name}, not a product list; ${sig.hint ? `${sig.hint}, or ` : ""}${ACCEPTED}`,
      );
    }
  }
  const encoding = named ?? detectEncoding(head, { legacy: true, atStart: true });
  const text = encoding ? decodeSample(head, encoding) : head.toString("latin1");
  if (!encoding?.startsWith("utf-16") && looksBinary(text)) {
    if (declared === "xlsx")
      throw new MalformedDocumentError(
        `the file is named as XLSX but is not a ZIP-based workbook (damaged or renamed?); ${ACCEPTED}`,
      );
    throw new UnsupportedDocumentError(
      `this is a binary file of an unknown kind, not a product list; ${ACCEPTED}`,
    );
  }
  const start = text.replace(/^[\s\ufeff]+/, "");
  if (start.startsWith("<")) {
    if (isHtml(start))
      throw new UnsupportedDocumentError(`this is an HTML page, not a product list; ${ACCEPTED}`);
    return { format: "xml", encoding, text };
  }
  if (start.startsWith("[")) return { format: "json", encoding, text };
  // A file declared as JSON stays JSON whatever it starts with, so a bad one gets a JSON error.
  if (declared === "json" || (declared === "ndjson" && !start.startsWith("{")))
    return { format: "json", encoding, text };
  if (start.startsWith("{"))
    return {
      format: declared === "ndjson" || looksLikeNdjson(start) ? "ndjson" : "json",
      encoding,
      text,
    };
  return { format: "delimited", encoding, text };
}

type DeclaredKind = "xlsx" | "ndjson" | "json" | "delimited" | null;

function declaredKind({
  filename,
  contentType,
}: Pick<DocumentMeta, "filename" | "contentType">): DeclaredKind {
  const ext = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const type = contentType?.toLowerCase().split(";")[0]?.trim();
  if (
    ext === "xlsx" ||
    type === "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
  )
    return "xlsx";
  if (
    ext === "ndjson" ||
    ext === "jsonl" ||
    type === "application/x-ndjson" ||
    type === "application/jsonl" ||
    type === "application/x-jsonlines"
  )
    return "ndjson";
  if (ext === "json" || type === "application/json") return "json";
  if (ext === "csv" || ext === "tsv" || type === "text/csv" || type === "text/tab-separated-values")
    return "delimited";
  return null;
}

/** One JSON object per line: the first line is a whole object and another object follows. */
function looksLikeNdjson(text: string): boolean {
  const newline = text.indexOf("\n");
  if (newline < 0) return false;
  try {
    const first: unknown = JSON.parse(text.slice(0, newline));
    return typeof first === "object" && first !== null && /^\s*\{/.test(text.slice(newline + 1));
  } catch {
    return false;
  }
}

function looksBinary(text: string): boolean {
  const sample = text.slice(0, 4096);
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return true;
    if (c < 9 || (c > 13 && c < 32)) control++;
  }
  return control > sample.length * 0.05;
}

/** An HTML page (saved from a browser), told from XML by its doctype or root element. */
function isHtml(start: string): boolean {
  const sample = start
    .slice(0, 4096)
    .toLowerCase()
    .replace(/<\?xml[^>]*>|<!--[\s\S]*?-->/g, "")
    .trimStart();
  return /^<!doctype\s+html[\s>]|^<html[\s>]/.test(sample);
}

function startsWith(bytes: Buffer, prefix: number[], offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  return prefix.every((b, i) => bytes[offset + i] === b);
}
