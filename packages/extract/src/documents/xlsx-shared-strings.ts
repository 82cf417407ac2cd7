import type yauzl from "yauzl";
import type { XlsxPackage } from "./xlsx-package.js";
import { readHeldPart } from "./xlsx-package.js";
import { unescapeXstring } from "./xlsx-values.js";

/**
 * The shared strings table (xl/sharedStrings.xml), which cells of type "s" point into: each
 * <si> is plain text (<t>) or formatted runs (<r><t>), joined; phonetic readings (<rPh>) are
 * not shown in the cell and are left out. Held in memory whole, within `heldPartBytes`.
 */
export async function readSharedStrings(
  pkg: XlsxPackage,
  entry: yauzl.Entry | null,
): Promise<string[]> {
  const strings: string[] = [];
  if (!entry) return strings;
  let parts: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  await readHeldPart(pkg, entry, {
    open(name) {
      if (name === "si") parts = [];
      else if (name === "rPh") phonetic++;
      else if (name === "t" && phonetic === 0) inText = parts !== null;
    },
    text(text) {
      if (inText && parts !== null) parts.push(text);
    },
    close(name) {
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si" && parts !== null) {
        strings.push(unescapeXstring(parts.length === 1 ? parts[0]! : parts.join("")));
        parts = null;
      }
    },
  });
  return strings;
}
