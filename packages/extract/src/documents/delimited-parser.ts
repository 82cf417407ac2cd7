import { MalformedDocumentError } from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";

const QUOTE = 34;
const UNCLOSED = '; a quote (") is probably not closed';

/**
 * RFC 4180 records from text that arrives in chunks; quoted cells may hold delimiters, doubled
 * quotes and newlines. State carries across chunks, so a long quoted cell is scanned once.
 * Finding the next delimiter/newline with indexOf (and remembering where they are) rather than
 * looking at every character is what makes this fast.
 */
export class DelimitedParser {
  private fields: string[] = [];
  private field = "";
  private inQuotes = false;
  private atFieldStart = true;
  private pending = "";
  private recordChars = 0;
  private records = 0;

  constructor(
    private readonly delimiter: string,
    private readonly newline: "\n" | "\r" = "\n",
  ) {}

  /** Complete records found so far; `final` flushes the last one. */
  push(chunk: string, final = false): string[][] {
    const s = this.pending + chunk;
    this.pending = "";
    const out: string[][] = [];
    const { delimiter, newline } = this;
    const len = s.length;
    let i = 0;
    let nextDelimiter = -1;
    let nextNewline = -1;
    let recordStart = 0;
    while (i < len) {
      if (this.inQuotes) {
        const q = s.indexOf('"', i);
        if (q < 0) {
          this.field += s.slice(i);
          break;
        }
        // A quote at the very end may be the first half of "": wait for the next chunk.
        if (q === len - 1 && !final) {
          this.field += s.slice(i, q);
          this.pending = '"';
          break;
        }
        if (s.charCodeAt(q + 1) === QUOTE) {
          this.field += s.slice(i, q + 1);
          i = q + 2;
          continue;
        }
        this.field += s.slice(i, q);
        this.inQuotes = false;
        i = q + 1;
        continue;
      }
      if (this.atFieldStart && s.charCodeAt(i) === QUOTE) {
        this.inQuotes = true;
        this.atFieldStart = false;
        i++;
        continue;
      }
      if (nextDelimiter < i) {
        nextDelimiter = s.indexOf(delimiter, i);
        if (nextDelimiter < 0) nextDelimiter = len;
      }
      if (nextNewline < i) {
        nextNewline = s.indexOf(newline, i);
        if (nextNewline < 0) nextNewline = len;
      }
      const end = nextDelimiter < nextNewline ? nextDelimiter : nextNewline;
      if (end === len) {
        this.field += s.slice(i);
        this.atFieldStart = false;
        break;
      }
      this.field += s.slice(i, end);
      this.checkField();
      if (end === nextDelimiter) {
        this.fields.push(this.field);
      } else {
        this.fields.push(
          newline === "\n" && this.field.endsWith("\r") ? this.field.slice(0, -1) : this.field,
        );
        if (this.recordChars + end - recordStart > DOCUMENT_LIMITS.recordChars)
          throw overLimit.recordChars(`row ${this.records + 1}`, UNCLOSED);
        out.push(this.fields);
        this.fields = [];
        this.recordChars = 0;
        recordStart = end + 1;
        this.records++;
      }
      this.field = "";
      this.atFieldStart = true;
      i = end + 1;
    }
    this.recordChars += len - recordStart;
    if (this.recordChars > DOCUMENT_LIMITS.recordChars)
      throw overLimit.recordChars(`row ${this.records + 1}`, UNCLOSED);
    this.checkField();
    if (final) {
      if (this.inQuotes) {
        throw new MalformedDocumentError(
          `row ${this.records + 1}: a quoted cell is not closed before the end of the file`,
        );
      }
      if (this.fields.length > 0 || this.field !== "") {
        this.fields.push(
          newline === "\n" && this.field.endsWith("\r") ? this.field.slice(0, -1) : this.field,
        );
        out.push(this.fields);
        this.fields = [];
        this.field = "";
      }
    }
    return out;
  }

  /**
   * A header of a million columns, or one cell of many megabytes, stops here rather than in memory.
   */
  private checkField(): void {
    if (this.field.length > DOCUMENT_LIMITS.cellChars)
      throw overLimit.cellChars(`row ${this.records + 1}`, UNCLOSED);
    if (this.fields.length >= DOCUMENT_LIMITS.columns)
      throw overLimit.columns(`row ${this.records + 1}`, "cells");
  }
}

/**
 * The delimiter is the candidate that appears most often outside quotes in the header line
 * (ties go in the order listed: comma first). A file named .tsv prefers tabs when it has any.
 */
export function detectDelimiter(
  text: string,
  preferTab: boolean,
): { delimiter: string; newline: "\n" | "\r" } {
  const newline = text.includes("\n") || !text.includes("\r") ? "\n" : "\r";
  const counts = new Map<string, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
    ["|", 0],
  ]);
  let inQuotes = false;
  const first = text.search(/[^\r\n]/);
  for (let i = Math.max(first, 0); i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes && c === newline) break;
    else if (!inQuotes && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  if (preferTab && counts.get("\t")! > 0) return { delimiter: "\t", newline };
  let best = ",";
  for (const [candidate, count] of counts) if (count > counts.get(best)!) best = candidate;
  return { delimiter: best, newline };
}
