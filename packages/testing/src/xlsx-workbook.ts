import { zipArchive, type ZipEntry } from "./zip-archive.js";

/**
 * A cell as a test writes it. Strings go to the shared strings, as spreadsheet programs write
 * them; a Date is a serial number with a date format, as Excel stores it. An array hole,
 * `null` or `undefined` writes no cell (a sparse row).
 */
export type XlsxCell =
  | string
  | number
  | boolean
  | Date
  | null
  | undefined
  /**
   * A shared string made of formatted runs; `phonetic` adds a reading (<rPh>) that is not shown.
   */
  | { richText: string[]; phonetic?: string }
  /** A string in the cell itself (t="inlineStr"), runs joined when given as an array. */
  | { inline: string | string[] }
  /** A formula with its cached value (none when `result` is left out). */
  | { formula: string; result?: string | number | boolean }
  /** The text shown, with a hyperlink to `hyperlink` in the sheet's hyperlinks. */
  | { text: string; hyperlink: string }
  /** An error value ("#DIV/0!"). */
  | { error: string }
  /** A number with a number format of its own ("yyyy-mm-dd", "0.00"). */
  | { number: number; format: string }
  /** The <c> element's XML as given; `{ref}` is replaced by its reference ("C5"). */
  | { xml: string };

export interface XlsxSheet {
  name: string;
  /** Row i is spreadsheet row i + 1; a hole or `null` writes no <row>. */
  rows: (XlsxCell[] | null | undefined)[];
  /** The sheet's part name (default xl/worksheets/sheet<n>.xml). */
  part?: string;
  /** The sheet part as given (a Buffer byte for byte), instead of one written from `rows`. */
  xml?: string | Buffer;
}

export interface XlsxOptions {
  /** The 1904 date system (Excel for Mac before 2011): serials count from 1904-01-01. */
  date1904?: boolean;
  /** Write the sheets into the archive before the workbook and the shared strings. */
  sheetsFirst?: boolean;
  /** Parts to leave out of the archive, though the workbook names them (a damaged file). */
  dropParts?: string[];
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Style 0 is General, 1 a date (built-in format 14); custom formats follow from 2. */
const DATE_STYLE = 1;

export const escapeXml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** "A", "Z", "AA", ... for column 1, 26, 27, ... */
export function columnName(column: number): string {
  let name = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** An XLSX workbook as a spreadsheet program writes it: enough parts to be opened by any reader. */
export function xlsxWorkbook(sheets: XlsxSheet[], options: XlsxOptions = {}): Buffer {
  const shared = new SharedStrings();
  const formats: string[] = [];
  const styleOf = (format: string) => {
    let at = formats.indexOf(format);
    if (at < 0) at = formats.push(format) - 1;
    return DATE_STYLE + 1 + at;
  };
  const parts = sheets.map((sheet, i) => {
    const name = sheet.part ?? `xl/worksheets/sheet${i + 1}.xml`;
    const links: { ref: string; url: string }[] = [];
    if (Buffer.isBuffer(sheet.xml)) return { name, xml: sheet.xml, links: [] };
    let xml =
      sheet.xml ??
      sheetXml(sheet.rows, (cell, ref) =>
        cellXml(cell, ref, { shared, styleOf, links, date1904: options.date1904 === true }),
      );
    if (links.length > 0) {
      const list = links
        .map((l, j) => `<hyperlink ref="${l.ref}" r:id="rIdLink${j + 1}"/>`)
        .join("");
      xml = xml.replace("</worksheet>", `<hyperlinks>${list}</hyperlinks></worksheet>`);
    }
    return { name, xml, links };
  });
  const workbookRels = parts.map(
    (p, i) =>
      `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="${p.name.replace(/^xl\//, "")}"/>`,
  );
  workbookRels.push(
    `<Relationship Id="rId${parts.length + 1}" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`,
  );
  workbookRels.push(
    `<Relationship Id="rId${parts.length + 2}" Type="${REL}/styles" Target="styles.xml"/>`,
  );
  const sheetEntries: ZipEntry[] = [];
  for (const p of parts) {
    sheetEntries.push({ name: p.name, data: Buffer.isBuffer(p.xml) ? p.xml : Buffer.from(p.xml) });
    if (p.links.length > 0) {
      const rels = p.links.map(
        (l, i) =>
          `<Relationship Id="rIdLink${i + 1}" Type="${REL}/hyperlink" Target="${escapeXml(l.url)}" TargetMode="External"/>`,
      );
      sheetEntries.push({
        name: p.name.replace(/([^/]+)$/, "_rels/$1.rels"),
        data: Buffer.from(
          `${DECLARATION}<Relationships xmlns="${PKG_REL}">${rels.join("")}</Relationships>`,
        ),
      });
    }
  }
  const sheetList = sheets
    .map((s, i) => `<sheet name="${escapeXml(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join("");
  const workbook = `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr${options.date1904 ? ' date1904="1"' : ""}/><sheets>${sheetList}</sheets></workbook>`;
  const customFormats = formats
    .map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${escapeXml(f)}"/>`)
    .join("");
  const customXfs = formats
    .map(
      (_, i) =>
        `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
    )
    .join("");
  const styles =
    `${DECLARATION}<styleSheet xmlns="${MAIN}">${formats.length > 0 ? `<numFmts count="${formats.length}">${customFormats}</numFmts>` : ""}` +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
    '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${2 + formats.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
    `<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>${customXfs}</cellXfs></styleSheet>`;
  const contentTypes =
    `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    parts
      .map(
        (p) =>
          `<Override PartName="/${p.name}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join("") +
    "</Types>";
  const head: ZipEntry[] = [
    { name: "[Content_Types].xml", data: Buffer.from(contentTypes) },
    {
      name: "_rels/.rels",
      data: Buffer.from(
        `${DECLARATION}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
  ];
  const book: ZipEntry[] = [
    { name: "xl/workbook.xml", data: Buffer.from(workbook) },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: Buffer.from(
        `${DECLARATION}<Relationships xmlns="${PKG_REL}">${workbookRels.join("")}</Relationships>`,
      ),
    },
    { name: "xl/sharedStrings.xml", data: Buffer.from(shared.xml()) },
    { name: "xl/styles.xml", data: Buffer.from(styles) },
  ];
  const entries = options.sheetsFirst
    ? [...head, ...sheetEntries, ...book]
    : [...head, ...book, ...sheetEntries];
  return zipArchive(entries.filter((e) => !options.dropParts?.includes(e.name)));
}

function sheetXml(
  rows: XlsxSheet["rows"],
  cell: (value: Exclude<XlsxCell, null | undefined>, ref: string) => string,
): string {
  const out: string[] = [];
  rows.forEach((cells, i) => {
    if (!cells) return;
    const r = i + 1;
    const xml: string[] = [];
    cells.forEach((value, c) => {
      if (value !== null && value !== undefined) xml.push(cell(value, `${columnName(c + 1)}${r}`));
    });
    out.push(`<row r="${r}">${xml.join("")}</row>`);
  });
  return `${DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${out.join("")}</sheetData></worksheet>`;
}

interface CellContext {
  shared: SharedStrings;
  styleOf: (format: string) => number;
  links: { ref: string; url: string }[];
  date1904: boolean;
}

function cellXml(
  value: Exclude<XlsxCell, null | undefined>,
  ref: string,
  ctx: CellContext,
): string {
  if (typeof value === "string")
    return `<c r="${ref}" t="s"><v>${ctx.shared.add(`<t xml:space="preserve">${escapeXml(value)}</t>`)}</v></c>`;
  if (typeof value === "number") return `<c r="${ref}"><v>${value}</v></c>`;
  if (typeof value === "boolean") return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  if (value instanceof Date)
    return `<c r="${ref}" s="${DATE_STYLE}"><v>${dateSerial(value, ctx.date1904)}</v></c>`;
  if ("richText" in value) {
    const runs = value.richText
      .map(
        (t, i) =>
          `<r>${i % 2 === 1 ? "<rPr><b/></rPr>" : ""}<t xml:space="preserve">${escapeXml(t)}</t></r>`,
      )
      .join("");
    const phonetic =
      value.phonetic === undefined
        ? ""
        : `<rPh sb="0" eb="1"><t>${escapeXml(value.phonetic)}</t></rPh>`;
    return `<c r="${ref}" t="s"><v>${ctx.shared.add(runs + phonetic)}</v></c>`;
  }
  if ("inline" in value) {
    const inline = Array.isArray(value.inline)
      ? value.inline.map((t) => `<r><t xml:space="preserve">${escapeXml(t)}</t></r>`).join("")
      : `<t xml:space="preserve">${escapeXml(value.inline)}</t>`;
    return `<c r="${ref}" t="inlineStr"><is>${inline}</is></c>`;
  }
  if ("formula" in value) {
    const { result } = value;
    const type =
      typeof result === "string" ? ' t="str"' : typeof result === "boolean" ? ' t="b"' : "";
    const cached =
      result === undefined
        ? ""
        : `<v>${typeof result === "string" ? escapeXml(result) : typeof result === "boolean" ? Number(result) : result}</v>`;
    return `<c r="${ref}"${type}><f>${escapeXml(value.formula)}</f>${cached}</c>`;
  }
  if ("hyperlink" in value) {
    ctx.links.push({ ref, url: value.hyperlink });
    return cellXml(value.text, ref, ctx);
  }
  if ("error" in value) return `<c r="${ref}" t="e"><v>${escapeXml(value.error)}</v></c>`;
  if ("number" in value)
    return `<c r="${ref}" s="${ctx.styleOf(value.format)}"><v>${value.number}</v></c>`;
  return value.xml.replace(/\{ref\}/g, ref);
}

/** Days since 1899-12-30 (1900 system, right from March 1900 on) or since 1904-01-01. */
export function dateSerial(date: Date, date1904 = false): number {
  return date.getTime() / 86_400_000 + 25_569 - (date1904 ? 1_462 : 0);
}

class SharedStrings {
  private readonly items: string[] = [];
  private readonly index = new Map<string, number>();
  private count = 0;

  add(innerXml: string): number {
    this.count++;
    let at = this.index.get(innerXml);
    if (at === undefined) {
      at = this.items.push(innerXml) - 1;
      this.index.set(innerXml, at);
    }
    return at;
  }

  xml(): string {
    return `${DECLARATION}<sst xmlns="${MAIN}" count="${this.count}" uniqueCount="${this.items.length}">${this.items.map((s) => `<si>${s}</si>`).join("")}</sst>`;
  }
}
