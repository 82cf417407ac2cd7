import type yauzl from "yauzl";
import { MalformedDocumentError } from "./document-errors.js";
import type { TableRecord } from "./document-row.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";
import { xmlPart, type XmlHandlers } from "./xlsx-xml.js";
import {
  columnOf,
  isoDateText,
  numberText,
  serialDateText,
  unescapeXstring,
} from "./xlsx-values.js";

export interface SheetContext {
  sharedStrings: readonly string[];
  dateStyles: readonly boolean[];
  date1904: boolean;
}

/**
 * The rows of a worksheet part, streamed: a row is handed on as soon as its </row> is read, and
 * the part is read only as fast as rows are taken. Cells land at their reference's column
 * ("C5" is the third cell; the ones between are empty), rows carry their own number. Only cells
 * with a value count towards a row's width, as a spreadsheet shows it. Each limit is checked
 * while the cell is read: a cell past column 2,000, a value past the cell length, a row past the
 * row length.
 */
export async function* sheetRows(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  context: SheetContext,
): AsyncGenerator<TableRecord> {
  const reader = new SheetReader(context);
  const chunks = xmlPart(zip, entry, reader);
  try {
    while (!(await chunks.next()).done) yield* reader.take();
    // Rows the parser completed only when the part ended.
    yield* reader.take();
  } finally {
    await chunks.return(undefined);
  }
}

type Capture = "none" | "value" | "inline";

class SheetReader implements XmlHandlers {
  private ready: TableRecord[] = [];
  private inSheetData = false;
  private rowNumber = 0;
  private cells: string[] | null = null;
  private rowChars = 0;
  private nextColumn = 1;
  // The cell being read.
  private column = 0;
  private type = "";
  private style = 0;
  private hasFormula = false;
  private capture: Capture = "none";
  private phonetic = 0;
  private value: string[] | null = null;
  private inline: string[] | null = null;
  private captured = 0;

  constructor(private readonly context: SheetContext) {}

  take(): TableRecord[] {
    const ready = this.ready;
    this.ready = [];
    return ready;
  }

  open(name: string, attributes: Record<string, string>): void {
    if (name === "sheetData") this.inSheetData = true;
    if (!this.inSheetData) return;
    switch (name) {
      case "row": {
        const r = Number(attributes.r);
        this.rowNumber = Number.isInteger(r) && r > 0 ? r : this.rowNumber + 1;
        this.cells = [];
        this.rowChars = 0;
        this.nextColumn = 1;
        break;
      }
      case "c": {
        const ref = attributes.r;
        const column = ref === undefined ? this.nextColumn : columnOf(ref);
        if (column === null) {
          const shown = ref?.slice(0, 20) ?? "";
          throw new MalformedDocumentError(
            `the XLSX file is damaged: "${shown}" in row ${this.rowNumber} is not a cell reference; ` +
              "save it again from the spreadsheet program",
          );
        }
        this.column = column;
        this.type = attributes.t ?? "n";
        this.style = attributes.s === undefined ? 0 : Number(attributes.s);
        this.hasFormula = false;
        this.value = null;
        this.inline = null;
        this.captured = 0;
        break;
      }
      case "f":
        this.hasFormula = true;
        break;
      case "v":
        this.capture = "value";
        this.value ??= [];
        break;
      case "is":
        this.inline = [];
        break;
      case "rPh":
        this.phonetic++;
        break;
      case "t":
        if (this.inline !== null && this.phonetic === 0) this.capture = "inline";
        break;
    }
  }

  text(text: string): void {
    if (this.capture === "none") return;
    this.captured += text.length;
    // Bounded while it arrives, not only once whole ("_x000D_" escapes shrink 7:1 when unescaped).
    if (this.captured > DOCUMENT_LIMITS.cellChars * 7)
      throw overLimit.cellChars(`row ${this.rowNumber}`);
    (this.capture === "value" ? this.value : this.inline)?.push(text);
  }

  close(name: string): void {
    if (!this.inSheetData) return;
    switch (name) {
      case "v":
      case "t":
        this.capture = "none";
        break;
      case "rPh":
        this.phonetic--;
        break;
      case "c":
        this.endCell();
        break;
      case "row":
        this.endRow();
        break;
      case "sheetData":
        this.inSheetData = false;
        break;
    }
  }

  private endCell(): void {
    if (this.cells === null) return;
    const text = this.cellText();
    this.nextColumn = this.column + 1;
    if (text === null) return;
    if (this.column > DOCUMENT_LIMITS.columns)
      throw overLimit.columns(`row ${this.rowNumber}`, "cells");
    if (text.length > DOCUMENT_LIMITS.cellChars) throw overLimit.cellChars(`row ${this.rowNumber}`);
    this.rowChars += text.length;
    if (this.rowChars > DOCUMENT_LIMITS.recordChars)
      throw overLimit.recordChars(`row ${this.rowNumber}`);
    for (let i = this.cells.length; i < this.column - 1; i++) this.cells.push("");
    this.cells[this.column - 1] = text;
  }

  private endRow(): void {
    if (this.cells !== null && this.cells.length > 0)
      this.ready.push({ row: this.rowNumber, cells: this.cells });
    this.cells = null;
  }

  /** What the cell shows; null for a cell without a value (only a style), which takes no place. */
  private cellText(): string | null {
    const raw = this.value === null ? null : this.value.join("");
    switch (this.type) {
      case "s": {
        if (raw === null || raw.trim() === "") return this.hasFormula ? "" : null;
        const index = Number(raw);
        const text = this.context.sharedStrings[index];
        if (text === undefined) {
          throw new MalformedDocumentError(
            `the XLSX file is damaged: row ${this.rowNumber} points to shared string ${raw.slice(0, 20)}, ` +
              `and there are ${this.context.sharedStrings.length}; save it again from the spreadsheet program`,
          );
        }
        return text;
      }
      case "inlineStr":
        if (this.inline !== null) return unescapeXstring(this.inline.join(""));
        return raw === null ? (this.hasFormula ? "" : null) : unescapeXstring(raw);
      case "str":
        return raw === null ? (this.hasFormula ? "" : null) : unescapeXstring(raw);
      case "b":
        if (raw === null || raw.trim() === "") return this.hasFormula ? "" : null;
        return raw.trim() === "0" || raw.trim().toLowerCase() === "false" ? "FALSE" : "TRUE";
      case "e":
        return raw === null && !this.hasFormula ? null : "";
      case "d":
        if (raw === null || raw.trim() === "") return this.hasFormula ? "" : null;
        return isoDateText(raw.trim()) ?? raw.trim();
      default: {
        if (raw === null || raw.trim() === "") return this.hasFormula ? "" : null;
        const number = Number(raw);
        if (Number.isNaN(number)) return raw.trim();
        if (this.context.dateStyles[this.style] === true)
          return serialDateText(number, this.context.date1904) ?? numberText(number);
        return numberText(number);
      }
    }
  }
}
