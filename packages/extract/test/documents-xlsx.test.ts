import { Readable } from "node:stream";
import { xlsxWorkbook, type XlsxCell, type XlsxSheet } from "@catalog/testing/xlsx-workbook";
import {
  DocumentLimitError,
  MalformedDocumentError,
  parseDocument,
  type DocumentRow,
} from "../src/documents/index.js";
import { stringMatching } from "@catalog/test-support/matchers";

// What the XLSX reader (xlsx-*.ts) reads itself: cell types, dates in both date systems, sparse
// rows, where the first sheet is, and damaged sheets refused with a message naming the problem.

async function collect(workbook: Buffer): Promise<DocumentRow[]> {
  const rows: DocumentRow[] = [];
  for await (const row of parseDocument(Readable.from([workbook]), {
    filename: "p.xlsx",
    maxBytes: 64 * 1024 * 1024,
  }))
    rows.push(row);
  return rows;
}

/** Each product row as its row number, title and the extra columns' text (Shown, Other, ...). */
async function shown(workbook: Buffer) {
  return (await collect(workbook)).map((r) =>
    r.ok
      ? { row: r.row, title: r.product.title, ...r.product.attributes }
      : { row: r.row, error: r.error },
  );
}

const sheet = (rows: XlsxSheet["rows"], name = "Products"): XlsxSheet[] => [{ name, rows }];
const withHeader = (...rows: XlsxCell[][]) => xlsxWorkbook(sheet([["Title", "Shown"], ...rows]));

/** A sheet part written by hand around `body` (the rows), for markup no writer here produces. */
const rawSheet = (body: string, prefix = "") =>
  `<?xml version="1.0" encoding="UTF-8"?><${prefix}worksheet xmlns${prefix ? `:${prefix.slice(0, -1)}` : ""}="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
  `<${prefix}sheetData>${body}</${prefix}sheetData></${prefix}worksheet>`;

describe("XLSX cell values", () => {
  test("dates in the 1900 and the 1904 date system read as the same day; a time of day is kept", async () => {
    for (const date1904 of [false, true]) {
      const workbook = xlsxWorkbook(
        sheet([
          ["Title", "Shown"],
          ["Day", new Date(Date.UTC(2024, 0, 15))],
          ["Moment", new Date(Date.UTC(2023, 11, 31, 18, 30))],
          ["Leap", new Date(Date.UTC(2024, 1, 29))],
        ]),
        { date1904 },
      );
      expect(await shown(workbook)).toEqual([
        { row: 2, title: "Day", Shown: "2024-01-15" },
        { row: 3, title: "Moment", Shown: "2023-12-31T18:30:00.000Z" },
        { row: 4, title: "Leap", Shown: "2024-02-29" },
      ]);
    }
  });

  test("a number is a date when its format shows a date, built-in or custom; other formats keep the number", async () => {
    const serial = 45306; // 2024-01-15 in the 1900 system
    expect(
      await shown(
        withHeader(
          ["Custom day", { number: serial, format: "dd/mm/yyyy;@" }],
          ["Locale day", { number: serial, format: "[$-409]mmmm d, yyyy" }],
          ["Decimal", { number: 1234.5, format: '#,##0.00 "days"' }],
          ["Percent", { number: 0.25, format: "0%" }],
          ["Built-in 14", { xml: `<c r="{ref}" s="1"><v>${serial}</v></c>` }],
          ["Early", { number: 32, format: "yyyy-mm-dd" }],
        ),
      ),
    ).toEqual([
      { row: 2, title: "Custom day", Shown: "2024-01-15" },
      { row: 3, title: "Locale day", Shown: "2024-01-15" },
      { row: 4, title: "Decimal", Shown: "1234.5" },
      { row: 5, title: "Percent", Shown: "0.25" },
      { row: 6, title: "Built-in 14", Shown: "2024-01-15" },
      // Before March 1900 Excel counts a 29 February that never was: serial 32 is 1 February.
      { row: 7, title: "Early", Shown: "1900-02-01" },
    ]);
  });

  test("inline strings, formula results of every type, booleans, errors and ISO date cells", async () => {
    expect(
      await shown(
        withHeader(
          ["Inline", { inline: "plain inline" }],
          ["Inline runs", { inline: ["bold ", "and plain"] }],
          ["Formula text", { formula: 'A2&"!"', result: "Inline!" }],
          ["Formula number", { formula: "10/4", result: 2.5 }],
          ["Formula boolean", { formula: "1>0", result: true }],
          ["Formula unsaved", { formula: "NOW()" }],
          ["Boolean", false],
          ["Error", { error: "#DIV/0!" }],
          ["Float noise", 0.1 + 0.2],
          ["Big", 4006381333931],
          ["ISO date cell", { xml: '<c r="{ref}" t="d"><v>2024-01-15T00:00:00</v></c>' }],
        ),
      ),
    ).toEqual([
      { row: 2, title: "Inline", Shown: "plain inline" },
      { row: 3, title: "Inline runs", Shown: "bold and plain" },
      { row: 4, title: "Formula text", Shown: "Inline!" },
      { row: 5, title: "Formula number", Shown: "2.5" },
      { row: 6, title: "Formula boolean", Shown: "TRUE" },
      { row: 7, title: "Formula unsaved" },
      { row: 8, title: "Boolean", Shown: "FALSE" },
      { row: 9, title: "Error" },
      { row: 10, title: "Float noise", Shown: "0.3" },
      { row: 11, title: "Big", Shown: "4006381333931" },
      { row: 12, title: "ISO date cell", Shown: "2024-01-15" },
    ]);
  });

  test("shared strings with formatted runs are joined; a phonetic reading is not part of the text; _xHHHH_ escapes are undone", async () => {
    expect(
      await shown(
        withHeader(
          [{ richText: ["Oak ", "Table", " XL"] }, "Tab\u0009bed & <b>"],
          [{ richText: ["東京"], phonetic: "トウキョウ" }, "Line_x000D_ break"],
          ["Literal", "_x005F_x000D_ stays"],
        ),
      ),
    ).toEqual([
      { row: 2, title: "Oak Table XL", Shown: "Tab\tbed & <b>" },
      { row: 3, title: "東京", Shown: "Line\r break" },
      { row: 4, title: "Literal", Shown: "_x000D_ stays" },
    ]);
  });
});

describe("XLSX rows and sheets", () => {
  test("sparse cells land in their columns and rows keep their numbers; empty rows are skipped", async () => {
    const rows: XlsxCell[][] = [];
    rows[2] = ["Title", null, "Other", null, "Shown"];
    rows[4] = ["Gap", undefined, undefined, undefined, "fifth column"];
    rows[9] = [null, null, "no title here", null, null];
    rows[12] = ["Last", null, "third"];
    expect(await shown(xlsxWorkbook(sheet(rows)))).toEqual([
      { row: 5, title: "Gap", Shown: "fifth column" },
      { row: 10, error: stringMatching(/^row 10: /) },
      { row: 13, title: "Last", Other: "third" },
    ]);
  });

  test("cells and rows without references follow the one before; styled empty cells take no place", async () => {
    const body =
      '<row><c t="inlineStr"><is><t>Title</t></is></c><c t="inlineStr"><is><t>Shown</t></is></c></row>' +
      '<row r="4"><c t="inlineStr"><is><t>Fourth</t></is></c><c><v>4</v></c><c r="Z4" s="3"/></row>' +
      '<row><c r="B5"><v>5</v></c><c t="inlineStr" r="A5"><is><t>Fifth</t></is></c></row>';
    const workbook = xlsxWorkbook([{ name: "P", rows: [], xml: rawSheet(body) }]);
    expect(await shown(workbook)).toEqual([
      { row: 4, title: "Fourth", Shown: "4" },
      { row: 5, title: "Fifth", Shown: "5" },
    ]);
  });

  test("elements with a namespace prefix (x:row) read the same", async () => {
    const body =
      '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Title</x:t></x:is></x:c></x:row>' +
      '<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t><![CDATA[Prefixed & <cdata>]]></x:t></x:is></x:c></x:row>';
    expect(await shown(xlsxWorkbook([{ name: "P", rows: [], xml: rawSheet(body, "x:") }]))).toEqual(
      [{ row: 2, title: "Prefixed & <cdata>" }],
    );
  });

  test("the first tab is read, wherever its part is and whatever it is called; sheets stored before the shared strings are read in place", async () => {
    const workbook = xlsxWorkbook(
      [
        {
          name: "Products",
          rows: [["Title"], ["From the first tab"]],
          part: "xl/worksheets/sheet2.xml",
        },
        {
          name: "Notes",
          rows: [["Title"], ["From the second tab"]],
          part: "xl/worksheets/sheet1.xml",
        },
      ],
      { sheetsFirst: true },
    );
    expect(await shown(workbook)).toEqual([{ row: 2, title: "From the first tab" }]);
  });
});

describe("XLSX refused", () => {
  const refusal = async (workbook: Buffer) => {
    const error = await collect(workbook).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  };

  test("a sheet that is not well-formed XML is 422 naming the part, line and column", async () => {
    const broken = xlsxWorkbook([
      {
        name: "P",
        rows: [],
        xml: rawSheet(
          '<row r="1"><c r="A1" t="inlineStr"><is><t>Title</t></is></c></row><row r="2"><c r="A2"><v>1</v></row>',
        ),
      },
    ]);
    const error = await refusal(broken);
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect((error as MalformedDocumentError).status).toBe(422);
    expect(error.message).toMatch(
      /^the XLSX file could not be read \(xl\/worksheets\/sheet1\.xml:1:\d+: unexpected close tag\.?\); save it again from the spreadsheet program or export it as CSV$/,
    );
  });

  test("rows read before the damage are not lost to it: the refusal comes when the damage is reached", async () => {
    const rows = Array.from(
      { length: 3_000 },
      (_, i) =>
        `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>Product ${i}</t></is></c></row>`,
    ).join("");
    const broken = xlsxWorkbook([
      {
        name: "P",
        rows: [],
        xml: rawSheet(
          `<row r="1"><c r="A1" t="inlineStr"><is><t>Title</t></is></c></row>${rows}<row r="9000"><c r="A9000"><v>1</c>`,
        ),
      },
    ]);
    const seen: DocumentRow[] = [];
    const error = await (async () => {
      for await (const row of parseDocument(Readable.from([broken]), {
        filename: "p.xlsx",
        maxBytes: 1e8,
      }))
        seen.push(row);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(seen.length).toBeGreaterThan(2_000);
  });

  test("an entity the XML declares itself is refused, never expanded", async () => {
    const doctype =
      '<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY lol "lollollollollollol">]>' +
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Title</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>&lol;&lol;</t></is></c></row></sheetData></worksheet>';
    const error = await refusal(xlsxWorkbook([{ name: "P", rows: [], xml: doctype }]));
    expect(error).toBeInstanceOf(MalformedDocumentError);
    expect(error.message).toMatch(/xl\/worksheets\/sheet1\.xml:1:\d+: .*entity/i);
  });

  test("a cell pointing past the shared strings, a reference that is none, and bytes that are not UTF-8 are 422", async () => {
    const missing = await refusal(
      withHeader(["Widget", { xml: '<c r="{ref}" t="s"><v>99</v></c>' }]),
    );
    expect(missing.message).toMatch(
      /^the XLSX file is damaged: row 2 points to shared string 99, and there are 3/,
    );
    const badRef = await refusal(withHeader(["Widget", { xml: '<c r="12"><v>1</v></c>' }]));
    expect(badRef.message).toMatch(
      /^the XLSX file is damaged: "12" in row 2 is not a cell reference/,
    );
    const latin1 = Buffer.from(
      rawSheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Title</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>Caf\xe9</t></is></c></row>',
      ),
      "latin1",
    );
    const notUtf8 = await refusal(xlsxWorkbook([{ name: "P", rows: [], xml: latin1 }]));
    expect(notUtf8.message).toMatch(/xl\/worksheets\/sheet1\.xml is not valid utf-8 text/);
  });

  test("a workbook whose first tab points to a part that is not there is 422", async () => {
    const workbook = xlsxWorkbook(
      [{ name: "Products", rows: [["Title"]], part: "xl/worksheets/sheet1.xml" }],
      { dropParts: ["xl/worksheets/sheet1.xml"] },
    );
    expect((await refusal(workbook)).message).toMatch(
      /^the XLSX file is damaged: its first sheet "Products" \(xl\/worksheets\/sheet1\.xml\) is not in the archive/,
    );
  });

  test("an inline string past 1,048,576 characters is 413 (cell length)", async () => {
    // Letters in no pattern, so the sheet stays under the ratio that would call it a ZIP bomb.
    let seed = 28;
    const letters = Array.from({ length: 1_100_000 }, () =>
      String.fromCharCode(97 + (((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) % 26)),
    );
    const error = await refusal(withHeader(["Long", { inline: letters.join("") }]));
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error.message).toMatch(/^row 2 has a value longer than 1,048,576 characters/);
  });

  test("a row whose cells add up past 8,388,608 characters is 413 (row length), though each cell is under the cell limit", async () => {
    const long = "y".repeat(1_000_000);
    const error = await refusal(withHeader(["Wide", ...Array.from({ length: 9 }, () => long)]));
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect([(error as DocumentLimitError).limit, (error as DocumentLimitError).status]).toEqual([
      "recordChars",
      413,
    ]);
    expect(error.message).toMatch(/^row 2 is longer than 8,388,608 characters/);
  });
});
