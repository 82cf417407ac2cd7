import { posix } from "node:path";
import yauzl from "yauzl";
import { MalformedDocumentError } from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";
import { xmlPart, type XmlHandlers } from "./xlsx-xml.js";

/** An opened workbook: its entries by lower-cased name (OPC part names ignore case). */
export interface XlsxPackage {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
}

/** Where the parts of the workbook are, and how it counts dates. */
export interface WorkbookParts {
  /** The first sheet's part, or null when the workbook names none that is in the archive. */
  firstSheet: string | null;
  sharedStrings: yauzl.Entry | null;
  styles: yauzl.Entry | null;
  date1904: boolean;
}

const WORKBOOK = "xl/workbook.xml";
const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";

export async function openPackage(path: string): Promise<XlsxPackage> {
  const zip = await yauzl.openPromise(path, {
    lazyEntries: true,
    autoClose: false,
    validateEntrySizes: true,
    strictFileNames: false,
  });
  const entries = new Map<string, yauzl.Entry>();
  try {
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName.toLowerCase(), entry);
  } catch (error) {
    zip.close();
    throw error;
  }
  return { zip, entries };
}

/**
 * Reads a part that is held whole (workbook, relationships, shared strings, styles), bounded by its
 * limit.
 */
export async function readHeldPart(
  pkg: XlsxPackage,
  entry: yauzl.Entry,
  handlers: XmlHandlers,
): Promise<void> {
  if (entry.uncompressedSize > DOCUMENT_LIMITS.heldPartBytes)
    throw overLimit.heldPartBytes(entry.fileName);
  // The handlers keep what they need; the chunks themselves are not waited on one by one.
  const chunks = xmlPart(pkg.zip, entry, handlers);
  while (!(await chunks.next()).done);
}

/**
 * The first sheet is the workbook's first <sheet> (the first tab), found through its
 * relationship; a workbook without relationships falls back on the first worksheet part in
 * archive order. Shared strings and styles are found the same way, else by their usual names.
 */
export async function workbookParts(pkg: XlsxPackage): Promise<WorkbookParts> {
  const book = {
    date1904: false,
    seenSheet: false,
    firstSheetId: null as string | null,
    firstSheetName: null as string | null,
  };
  const workbook = pkg.entries.get(WORKBOOK);
  if (!workbook) throw new MalformedDocumentError("the XLSX file has no xl/workbook.xml");
  await readHeldPart(pkg, workbook, {
    open(name, attributes) {
      if (name === "workbookPr")
        book.date1904 = attributes.date1904 === "1" || attributes.date1904 === "true";
      if (name === "sheet" && !book.seenSheet) {
        book.seenSheet = true;
        book.firstSheetName = attributes.name ?? null;
        book.firstSheetId =
          Object.entries(attributes).find(([key]) => key.endsWith(":id"))?.[1] ?? null;
      }
    },
    text() {},
    close() {},
  });
  const targets = new Map<string, string>();
  const byType = new Map<string, string>();
  const rels = pkg.entries.get(WORKBOOK_RELS);
  if (rels) {
    await readHeldPart(pkg, rels, {
      open(name, attributes) {
        if (
          name !== "Relationship" ||
          !attributes.Id ||
          !attributes.Target ||
          attributes.TargetMode === "External"
        )
          return;
        const target = partName(attributes.Target);
        targets.set(attributes.Id, target);
        const type = (attributes.Type ?? "").slice((attributes.Type ?? "").lastIndexOf("/") + 1);
        if (!byType.has(type)) byType.set(type, target);
      },
      text() {},
      close() {},
    });
  }
  const entry = (name: string | undefined) =>
    name === undefined ? null : (pkg.entries.get(name.toLowerCase()) ?? null);
  let firstSheet = book.firstSheetId === null ? null : (targets.get(book.firstSheetId) ?? null);
  if (firstSheet !== null && !entry(firstSheet)) {
    const named = book.firstSheetName === null ? "" : ` "${book.firstSheetName}"`;
    throw new MalformedDocumentError(
      `the XLSX file is damaged: its first sheet${named} (${firstSheet}) is not in the archive; ` +
        "save it again from the spreadsheet program",
    );
  }
  firstSheet ??=
    [...pkg.entries.values()].find((e) => /^xl\/worksheets\/[^/]+\.xml$/i.test(e.fileName))
      ?.fileName ?? null;
  return {
    firstSheet,
    sharedStrings: entry(byType.get("sharedStrings")) ?? entry("xl/sharedStrings.xml"),
    styles: entry(byType.get("styles")) ?? entry("xl/styles.xml"),
    date1904: book.date1904,
  };
}

/**
 * A relationship target as a part name: relative to xl/, or from the package root when it starts
 * with "/".
 */
function partName(target: string): string {
  const joined = target.startsWith("/") ? target.slice(1) : posix.join("xl", target);
  return posix.normalize(joined).replace(/^(\.\.\/)+/, "");
}
