import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { crc32, deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import {
  DocumentTooLargeError, EmptyDocumentError, MalformedDocumentError, parseDocument, UnsupportedDocumentError, type DocumentRow,
} from "../src/documents/index.js";

async function collect(content: Buffer | string | AsyncIterable<Buffer>, meta: { filename?: string; maxBytes?: number } = {}) {
  const rows: DocumentRow[] = [];
  const input = typeof content === "string" || Buffer.isBuffer(content) ? Readable.from([Buffer.from(content)]) : content;
  for await (const row of parseDocument(input, { maxBytes: 10_000_000, ...meta })) rows.push(row);
  return rows;
}

/** A minimal ZIP writer: enough to build archives that lie, that no library would write. */
function zip(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = deflateRawSync(e.data, { level: 9 });
    const name = Buffer.from(e.name);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8); local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc32(e.data), 14); local.writeUInt32LE(data.length, 18); local.writeUInt32LE(size, 22); local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0); dir.writeUInt16LE(20, 4); dir.writeUInt16LE(20, 6); dir.writeUInt16LE(8, 10); dir.writeUInt16LE(0x21, 14);
    dir.writeUInt32LE(crc32(e.data), 16); dir.writeUInt32LE(data.length, 20); dir.writeUInt32LE(size, 24); dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(dir, name);
    offset += 30 + name.length + data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, dirBytes, end]);
}

const workbookXml = Buffer.from('<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="S" sheetId="1"/></sheets></workbook>');

describe("refused documents", () => {
  test("a PNG is 415", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await expect(collect(png, { filename: "products.csv" })).rejects.toThrow(UnsupportedDocumentError);
    await expect(collect(png)).rejects.toThrow("this is a PNG image, not a product list");
  });

  test("a PDF is 415; so is a ZIP that is not a workbook, and HTML", async () => {
    await expect(collect("%PDF-1.7\n%\xe2\xe3\n")).rejects.toThrow(/PDF document.*upload a CSV, TSV, XLSX, JSON or NDJSON file/);
    await expect(collect(zip([{ name: "readme.txt", data: Buffer.from("hello") }]))).rejects.toThrow(/ZIP archive, not an XLSX workbook/);
    await expect(collect("<!DOCTYPE html><html><body>shop</body></html>")).rejects.toThrow(UnsupportedDocumentError);
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
    await expect(collect("foo,bar\n1,2\n")).rejects.toThrow(/no Title or Name column \(found "foo", "bar"\)/);
  });

  test.each([
    ["invalid JSON", '[{"title": "A"},, ]', /not valid JSON/],
    ["JSON cut short", '[{"title": "A"}, {"title": "B"', /ends before/],
    ["a JSON scalar", '"products"', /expected a JSON array of product objects, found a string/],
  ])("%s is 422 (MalformedDocumentError)", async (_, content, message) => {
    await expect(collect(content, { filename: "export.json" })).rejects.toThrow(MalformedDocumentError);
    await expect(collect(content, { filename: "export.json" })).rejects.toThrow(message);
  });

  test("more than maxBytes is 413, and reading stops there", async () => {
    let pulled = 0;
    async function* endless() {
      yield Buffer.from("Title,Price\n");
      for (;;) { pulled++; yield Buffer.from("Widget,1.00\n".repeat(100)); }
    }
    const error = await collect(endless(), { maxBytes: 50_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    expect((error as DocumentTooLargeError).status).toBe(413);
    expect((error as Error).message).toMatch(/larger than the 48\.8 KB limit/);
    expect(pulled).toBeLessThan(60);
  });
});

describe("XLSX safety", () => {
  test("a ZIP bomb (one entry inflating 1000:1) is refused before exceljs sees it", async () => {
    const bomb = zip([
      { name: "[Content_Types].xml", data: Buffer.from("<Types/>") },
      { name: "xl/workbook.xml", data: workbookXml },
      { name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(20 * 1024 * 1024, 0x20) },
    ]);
    expect(bomb.length).toBeLessThan(100_000);
    await expect(collect(bomb, { filename: "bomb.xlsx" })).rejects.toThrow(/xl\/worksheets\/sheet1\.xml" would unpack \d+ times its size/);
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
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("P").addRow(["Title"]);
    const good = Buffer.from(await wb.xlsx.writeBuffer());
    const cut = good.subarray(0, Math.floor(good.length * 0.6));
    await expect(collect(cut, { filename: "p.xlsx" })).rejects.toThrow(MalformedDocumentError);
  });
});
