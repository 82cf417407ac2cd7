import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { parseDocument, type DocumentRow } from "../../src/documents/index.js";

/** Rows read from a document, as the import reads them. */
export async function readRows(
  content: Buffer | string,
  meta: { filename?: string; currency?: string } = {},
): Promise<DocumentRow[]> {
  const rows: DocumentRow[] = [];
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  for await (const row of parseDocument(Readable.from([bytes]), { maxBytes: 10_000_000, ...meta }))
    rows.push(row);
  return rows;
}

export function productsOf(rows: DocumentRow[]) {
  return rows.flatMap((r) => (r.ok ? [r.product] : []));
}

export function errorsOf(rows: DocumentRow[]) {
  return rows.flatMap((r) => (r.ok ? [] : [r.error]));
}

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}
