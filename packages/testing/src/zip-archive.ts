import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** The uncompressed size to declare, when it should lie. */
  declaredSize?: number;
}

/**
 * A minimal ZIP writer (deflate, no data descriptors): enough to build workbooks of any shape,
 * including archives that lie about their sizes, which no library would write.
 */
export function zipArchive(entries: ZipEntry[], level = 9): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = deflateRawSync(e.data, { level });
    const name = Buffer.from(e.name);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc32(e.data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt16LE(0x21, 14);
    dir.writeUInt32LE(crc32(e.data), 16);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(dir, name);
    offset += 30 + name.length + data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, dirBytes, end]);
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/**
 * The parts of a one-sheet workbook whose cells all come from the shared strings: `rows` of
 * string indexes, `strings` as they should appear in xl/sharedStrings.xml.
 */
export function workbookParts(rows: number[][], strings: string[] | Buffer): ZipEntry[] {
  const cell = (col: number, row: number, index: number) =>
    `<c r="${String.fromCharCode(65 + col)}${row}" t="s"><v>${index}</v></c>`;
  const sheet = rows
    .map(
      (r, i) =>
        `<row r="${i + 1}">${r.map((index, col) => cell(col, i + 1, index)).join("")}</row>`,
    )
    .join("");
  const shared = Buffer.isBuffer(strings)
    ? strings
    : Buffer.from(
        `<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${s}</t></si>`).join("")}</sst>`,
      );
  const xml = (text: string) =>
    Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${text}`);
  return [
    {
      name: "[Content_Types].xml",
      data: xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    },
    {
      name: "xl/workbook.xml",
      data: xml(
        `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Products" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    { name: "xl/sharedStrings.xml", data: shared },
    {
      name: "xl/worksheets/sheet1.xml",
      data: xml(`<worksheet xmlns="${MAIN}"><sheetData>${sheet}</sheetData></worksheet>`),
    },
  ];
}
