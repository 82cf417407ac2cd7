import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { xlsxWorkbook } from "@catalog/testing/xlsx-workbook";
import { zipArchive as zip } from "@catalog/testing/zip-archive";
import {
  DocumentLimitError,
  DocumentTooLargeError,
  EmptyDocumentError,
  MalformedDocumentError,
  parseDocument,
  UnsupportedDocumentError,
  type DocumentRow,
} from "../src/documents/index.js";

async function collect(
  content: Buffer | string | AsyncIterable<Buffer>,
  meta: { filename?: string; maxBytes?: number } = {},
) {
  const rows: DocumentRow[] = [];
  const input =
    typeof content === "string" || Buffer.isBuffer(content)
      ? Readable.from([Buffer.from(content)])
      : content;
  for await (const row of parseDocument(input, { maxBytes: 10_000_000, ...meta })) rows.push(row);
  return rows;
}

const workbookXml = Buffer.from(
  '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="S" sheetId="1"/></sheets></workbook>',
);

describe("refused documents", () => {
  test("a PNG is 415", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await expect(collect(png, { filename: "products.csv" })).rejects.toThrow(
      UnsupportedDocumentError,
    );
    await expect(collect(png)).rejects.toThrow("this is a PNG image, not a product list");
  });

  test("a PDF is 415; so is a ZIP that is not a workbook, and HTML", async () => {
    await expect(collect("%PDF-1.7\n%\xe2\xe3\n")).rejects.toThrow(
      /PDF document.*upload a CSV, TSV, XLSX, JSON, NDJSON or XML file/,
    );
    await expect(
      collect(zip([{ name: "readme.txt", data: Buffer.from("hello") }])),
    ).rejects.toThrow(/ZIP archive, not an XLSX workbook/);
    await expect(collect("<!DOCTYPE html><html><body>shop</body></html>")).rejects.toThrow(
      UnsupportedDocumentError,
    );
  });

  test.each([
    ["an empty file", ""],
    ["blank space only", "  \n\n"],
    ["a header row only", "Title,SKU,Price\n"],
    ["a header and blank rows", "Title,SKU,Price\n,,\n\n"],
    ["an empty JSON array", "[ ]"],
  ])("%s is 422 (EmptyDocumentError)", async (_, content) => {
    const error = await collect(content).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmptyDocumentError);
    expect((error as EmptyDocumentError).status).toBe(422);
  });

  test("a header without any title column is 422 naming the columns found", async () => {
    await expect(collect("foo,bar\n1,2\n")).rejects.toThrow(
      /no Title or Name column \(found "foo", "bar"\)/,
    );
  });

  test.each([
    ["invalid JSON", '[{"title": "A"},, ]', /not valid JSON/],
    ["JSON cut short", '[{"title": "A"}, {"title": "B"', /ends before/],
    ["a JSON scalar", '"products"', /expected a JSON array of product objects, found a string/],
  ])("%s is 422 (MalformedDocumentError)", async (_, content, message) => {
    await expect(collect(content, { filename: "export.json" })).rejects.toThrow(
      MalformedDocumentError,
    );
    await expect(collect(content, { filename: "export.json" })).rejects.toThrow(message);
  });

  test("more than maxBytes is 413, and reading stops there", async () => {
    let pulled = 0;
    async function* endless() {
      yield Buffer.from("Title,Price\n");
      for (;;) {
        pulled++;
        yield Buffer.from("Widget,1.00\n".repeat(100));
      }
    }
    const error = await collect(endless(), { maxBytes: 50_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    expect((error as DocumentTooLargeError).status).toBe(413);
    expect((error as Error).message).toMatch(/larger than the 48\.8 KB limit/);
    expect(pulled).toBeLessThan(60);
  });
});

describe("XLSX safety", () => {
  test("a ZIP bomb (one entry inflating 1000:1) is refused before any part is parsed", async () => {
    const bomb = zip([
      { name: "[Content_Types].xml", data: Buffer.from("<Types/>") },
      { name: "xl/workbook.xml", data: workbookXml },
      { name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(20 * 1024 * 1024, 0x20) },
    ]);
    expect(bomb.length).toBeLessThan(100_000);
    await expect(collect(bomb, { filename: "bomb.xlsx" })).rejects.toThrow(
      /xl\/worksheets\/sheet1\.xml" would unpack \d+ times its size/,
    );
  });

  test("declared sizes adding up past 200 MB are refused", async () => {
    // Incompressible data keeps each entry's ratio under 100:1, so only the total trips.
    const noise = randomBytes(1_600_000);
    const big = zip([
      { name: "xl/workbook.xml", data: workbookXml },
      { name: "xl/worksheets/sheet1.xml", data: noise, declaredSize: 150 * 1024 * 1024 },
      { name: "xl/worksheets/sheet2.xml", data: noise, declaredSize: 150 * 1024 * 1024 },
    ]);
    await expect(collect(big)).rejects.toThrow(/unpacks to more than 200 MB/);
  });

  test("an entry that inflates past its declared size is refused", async () => {
    const liar = zip([
      { name: "xl/workbook.xml", data: workbookXml },
      { name: "xl/sharedStrings.xml", data: Buffer.alloc(900_000, 0x41), declaredSize: 1000 },
    ]);
    await expect(collect(liar)).rejects.toThrow(MalformedDocumentError);
  });

  test("a damaged XLSX is 422, not a crash", async () => {
    const good = xlsxWorkbook([{ name: "P", rows: [["Title"]] }]);
    const cut = good.subarray(0, Math.floor(good.length * 0.6));
    await expect(collect(cut, { filename: "p.xlsx" })).rejects.toThrow(MalformedDocumentError);
  });
});

describe("limits: every one refused while streaming, naming the limit and its value", () => {
  const refusal = async (content: Buffer | string, filename: string) => {
    const error = await collect(content, { filename, maxBytes: 64 * 1024 * 1024 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DocumentLimitError);
    return error as DocumentLimitError;
  };

  test("a CSV header of 1,000,000 columns is 413 (cells per row)", async () => {
    const header = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(",");
    const error = await refusal(`${header}\nA,1\n`, "wide.csv");
    expect([error.status, error.limit]).toEqual([413, "columns"]);
    expect(error.message).toMatch(/^row 1 has more than 2,000 cells, the limit for one row/);
  });

  test("a cell of 2,000,000 characters is 413 (cell length), and so is an unclosed quote", async () => {
    const long = await refusal(`Title,Description\nShirt,${"x".repeat(2_000_000)}\n`, "long.csv");
    expect([long.status, long.limit]).toEqual([413, "cellChars"]);
    expect(long.message).toMatch(/^row 2 has a value longer than 1,048,576 characters/);
    const unclosed = await refusal(
      `Title,Description\nShirt,"${"open quote, ".repeat(200_000)}\n`,
      "quote.csv",
    );
    expect(unclosed.message).toMatch(/a quote \(".*\) is probably not closed/);
  });

  test("a row of 8,400,000 characters in cells under the cell limit is 413 (row length)", async () => {
    const row = Array.from({ length: 1_999 }, () => "y".repeat(4_200)).join(",");
    const error = await refusal(`Title,More\n${row}\n`, "line.csv");
    expect([error.status, error.limit]).toEqual([413, "recordChars"]);
    expect(error.message).toMatch(/^row 2 is longer than 8,388,608 characters/);
  });

  test("1,000,001 data rows are 413 (rows)", async () => {
    const error = await refusal(`Title\n${"Widget\n".repeat(1_000_001)}`, "many.csv");
    expect(error.message).toMatch(/more than 1,000,000 rows, the limit for one import/);
  });

  test("JSON nested 100,000 deep is 422 (depth), as an array item and as an NDJSON line", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const json = await refusal(`[{"title": "Deep", "attributes": {"x": ${deep}}}]`, "deep.json");
    expect([json.status, json.limit]).toEqual([422, "depth"]);
    expect(json.message).toBe(
      "item 1 nests arrays and objects more than 32 levels deep, the limit for a JSON document",
    );
    const ndjson = await refusal(
      `{"title": "Flat"}\n{"title": "Deep", "attributes": {"x": ${deep}}}\n`,
      "deep.ndjson",
    );
    expect(ndjson.message).toMatch(/^line 2 nests arrays and objects more than 32 levels deep/);
  });

  test("a JSON object with 3,000 keys, a 2 MB string, and a 9 MB NDJSON line are 413", async () => {
    const keys = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`k${i}`, i]));
    expect((await refusal(JSON.stringify([{ title: "A", ...keys }]), "keys.json")).message).toMatch(
      /^item 1 has an object with more than 2,000 keys/,
    );
    expect(
      (await refusal(JSON.stringify([{ title: "x".repeat(2_000_000) }]), "string.json")).limit,
    ).toBe("cellChars");
    const line = JSON.stringify({
      title: "Long",
      ...Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [`part${i}`, "z".repeat(900_000)]),
      ),
    });
    expect((await refusal(`${line}\n`, "line.ndjson")).message).toMatch(
      /^line 1 is longer than 8,388,608 characters/,
    );
  });

  test("XLSX shared strings unpacking past 32 MB are 413 before they are read into memory", async () => {
    // Varied enough to stay well under the 100:1 ratio that would call it a bomb.
    const strings = Array.from(
      { length: 420_000 },
      (_, i) =>
        `<si><t>Product ${i} ${((i * 2654435761) % 4294967296).toString(36)} ${"abcdefghij".slice(i % 10)}</t></si>`,
    );
    const shared = Buffer.from(
      `<sst>${strings.join("")}${"<si><t>padding</t></si>".repeat(700_000)}</sst>`,
    );
    expect(shared.length).toBeGreaterThan(32 * 1024 * 1024);
    const error = await refusal(
      zip([
        { name: "xl/workbook.xml", data: workbookXml },
        { name: "xl/sharedStrings.xml", data: shared },
      ]),
      "strings.xlsx",
    );
    expect([error.status, error.limit]).toEqual([413, "heldPartBytes"]);
    expect(error.message).toMatch(/"xl\/sharedStrings\.xml" unpacks to more than 32 MB/);
  });

  test("an XLSX row with a cell in column 2,500 is 413 (cells per row)", async () => {
    const row: string[] = ["Title"];
    row[2_499] = "Far";
    const error = await refusal(xlsxWorkbook([{ name: "P", rows: [row] }]), "far.xlsx");
    expect(error.message).toMatch(/^row 1 has more than 2,000 cells/);
  });
});
