import { detectDelimiter, DelimitedParser } from "./delimited-parser.js";
import type { TableRecord } from "./document-row.js";

export interface DelimitedInfo {
  delimiter: string;
}

/**
 * CSV/TSV text chunks to numbered records. A record is one spreadsheet row even when a quoted
 * cell spans several lines, so record N is row N.
 */
export function delimitedRecords(
  text: AsyncIterable<string>, headText: string, preferTab: boolean,
): { info: DelimitedInfo; records: AsyncGenerator<TableRecord> } {
  const { delimiter, newline } = detectDelimiter(headText, preferTab);
  const parser = new DelimitedParser(delimiter, newline);
  async function* records(): AsyncGenerator<TableRecord> {
    let row = 0;
    for await (const chunk of text) {
      for (const cells of parser.push(chunk)) yield { row: ++row, cells };
    }
    for (const cells of parser.push("", true)) yield { row: ++row, cells };
  }
  return { info: { delimiter }, records: records() };
}
