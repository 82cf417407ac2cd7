import type { ProductCandidate } from "@catalog/extract";
import type { ImportItem } from "@catalog/db";

/** A candidate becomes an import item once it has a title; without one it cannot be a product. */
export function toImportItem(candidate: ProductCandidate): ImportItem | { error: string } {
  const { provenance, ...fields } = candidate;
  const title = fields.title?.trim();
  if (!title) return { error: "no product title found" };
  return { fields: { ...fields, title }, provenance };
}
