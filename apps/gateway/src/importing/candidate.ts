import type { ProductCandidate } from "@catalog/extract";
import type { ImportItem } from "@catalog/db";
import {
  MAX_JSON_DEPTH,
  describeJsonPath,
  pathTooDeep,
  titleAndSkuTooLong,
  unstorableText,
} from "@catalog/values";

/**
 * A candidate becomes an import item once it has a title; without one it cannot be a product. One
 * nested deeper than MAX_JSON_DEPTH is refused here, before the diff, Prisma and the answer's
 * serialization walk it recursively, and so is one with text PostgreSQL cannot store (NUL, a lone
 * surrogate), and so is one whose title and SKU are too long together to be searched.
 */
export const NO_TITLE = "no product title found";

export function toImportItem(candidate: ProductCandidate): ImportItem | { error: string } {
  const { provenance, ...fields } = candidate;
  const title = fields.title?.trim();
  if (!title) return { error: NO_TITLE };
  const deep = pathTooDeep(fields);
  if (deep)
    return {
      error: `field "${describeJsonPath(deep)}" is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`,
    };
  const unstorable = unstorableText(fields);
  if (unstorable)
    return { error: `field "${describeJsonPath(unstorable.path)}" ${unstorable.problem}` };
  const tooLong = titleAndSkuTooLong(title, fields.sku);
  if (tooLong) return { error: tooLong };
  return { fields: { ...fields, title }, provenance };
}
