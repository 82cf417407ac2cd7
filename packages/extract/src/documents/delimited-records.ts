import { detectDelimiter, DelimitedParser } from "./delimited-parser.js";
import { MalformedDocumentError } from "./document-errors.js";
import type { TableRecord } from "./document-row.js";
import type { TextDecoding } from "./text-encoding.js";

export interface DelimitedInfo {
  delimiter: string;
}

/**
 * CSV/TSV text chunks to numbered records. A record is one spreadsheet row even when a quoted
 * cell spans several lines, so record N is row N. Once `decoding` has put out a U+FFFD, records
 * holding one are marked `undecodable` (the cells are only looked at from then on).
 */
export function delimitedRecords(
  decoding: TextDecoding,
  text: AsyncIterable<string>,
  headText: string,
  preferTab: boolean,
  /**
   * The text may be the first part of a file: a last record left open (an unclosed quote) is
   * dropped rather than refused.
   */
  cutShort = false,
): { info: DelimitedInfo; records: AsyncGenerator<TableRecord> } {
  const { delimiter, newline } = detectDelimiter(headText, preferTab);
  const parser = new DelimitedParser(delimiter, newline);
  let row = 0;
  const record = (cells: string[]): TableRecord => {
    row++;
    if (decoding.replaced && cells.some((cell) => cell.includes("\ufffd")))
      return { row, cells, undecodable: decoding.choice?.name ?? "the file's encoding" };
    return { row, cells };
  };
  async function* records(): AsyncGenerator<TableRecord> {
    for await (const chunk of text) {
      for (const cells of parser.push(chunk)) yield record(cells);
    }
    let last: string[][];
    try {
      last = parser.push("", true);
    } catch (error) {
      if (cutShort && error instanceof MalformedDocumentError) return;
      throw error;
    }
    for (const cells of last) yield record(cells);
  }
  return { info: { delimiter }, records: records() };
}
