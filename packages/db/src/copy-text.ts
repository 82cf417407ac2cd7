import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/** One row for COPY: its values in the statement's column order (text, number or null). */
export type CopyRow = readonly (string | number | null)[];

/** A value in COPY's text format: backslash, newline, carriage return and tab escaped. */
function copyText(value: string | number | null): string {
  if (value === null) return "\\N";
  const text = typeof value === "number" ? String(value) : value;
  return /[\\\n\r\t]/.test(text)
    ? text.replace(/[\\\n\r\t]/g, (c) =>
        c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t",
      )
    : text;
}

/** A `text[]` value as PostgreSQL's array literal, every element quoted (before copyText). */
export function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((item) => `"${item.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
}

/**
 * Streams `items` into `COPY <target> FROM STDIN` on `client`, a chunk every 256 KB of text (COPY
 * takes them as they come). Each item's row (`rowOf`) is made as its text is written, so a
 * batch's rows are never all held at once.
 */
export async function copyRows<T>(
  client: pg.ClientBase,
  target: string,
  items: readonly T[],
  rowOf: (item: T, index: number) => CopyRow,
): Promise<void> {
  const chunks = (function* () {
    let text = "";
    for (let i = 0; i < items.length; i++) {
      text += rowOf(items[i]!, i).map(copyText).join("\t") + "\n";
      if (text.length > 256 * 1024) {
        yield text;
        text = "";
      }
    }
    if (text) yield text;
  })();
  await pipeline(Readable.from(chunks), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}
