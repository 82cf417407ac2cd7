import type { ProductCandidate } from "@catalog/extract";
import { MAX_JSON_DEPTH, describeJsonPath, pathTooDeep, pathWithNul, type ImportItem } from "@catalog/db";

/**
 * A candidate becomes an import item once it has a title; without one it cannot be a product.
 * One nested deeper than MAX_JSON_DEPTH is refused here, before the diff, Prisma and the answer's
 * serialization walk it recursively, and so is one with a NUL character, which PostgreSQL cannot store.
 */
export const NO_TITLE = "no product title found";

export function toImportItem(candidate: ProductCandidate): ImportItem | { error: string } {
  const { provenance, ...fields } = candidate;
  const title = fields.title?.trim();
  if (!title) return { error: NO_TITLE };
  const deep = pathTooDeep(fields);
  if (deep) return { error: `field "${describeJsonPath(deep)}" is nested deeper than the limit of ${MAX_JSON_DEPTH} levels` };
  const nul = pathWithNul(fields);
  if (nul) return { error: `field "${describeJsonPath(nul)}" contains a NUL character (U+0000), which cannot be stored` };
  return { fields: { ...fields, title }, provenance };
}
