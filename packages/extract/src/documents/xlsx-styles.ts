import type yauzl from "yauzl";
import type { XlsxPackage } from "./xlsx-package.js";
import { readHeldPart } from "./xlsx-package.js";
import { isDateFormatCode, isDateFormatId } from "./xlsx-values.js";

/**
 * Which cell styles (the `s` of a cell, an index into <cellXfs>) show a number as a date: the
 * style's number format is a built-in date format or a custom one with date or time codes.
 */
export async function readDateStyles(
  pkg: XlsxPackage,
  entry: yauzl.Entry | null,
): Promise<boolean[]> {
  if (!entry) return [];
  const customCodes = new Map<number, string>();
  const formatIds: number[] = [];
  let inCellXfs = false;
  await readHeldPart(pkg, entry, {
    open(name, attributes) {
      if (name === "numFmt" && attributes.numFmtId !== undefined)
        customCodes.set(Number(attributes.numFmtId), attributes.formatCode ?? "");
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) formatIds.push(Number(attributes.numFmtId ?? 0));
    },
    text() {},
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return formatIds.map((id) => {
    const code = customCodes.get(id);
    return code === undefined ? isDateFormatId(id) : isDateFormatCode(code);
  });
}
