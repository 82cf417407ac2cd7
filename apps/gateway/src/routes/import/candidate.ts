import type { ProductCandidate } from "@catalog/extract";
import { MAX_JSON_DEPTH, describeJsonPath, pathTooDeep, type ImportItem } from "@catalog/db";

/**
 * A candidate becomes an import item once it has a title; without one it cannot be a product.
 * One nested deeper than MAX_JSON_DEPTH is refused here, before the diff, Prisma and the answer's
 * serialization walk it recursively.
 */
export function toImportItem(candidate: ProductCandidate): ImportItem | { error: string } {
  const { provenance, ...fields } = candidate;
  const title = fields.title?.trim();
  if (!title) return { error: "no product title found" };
  const deep = pathTooDeep(fields);
  if (deep) return { error: `field "${describeJsonPath(deep)}" is nested deeper than the limit of ${MAX_JSON_DEPTH} levels` };
  return { fields: { ...fields, title }, provenance };
}
