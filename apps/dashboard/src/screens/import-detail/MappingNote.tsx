import type { Import } from "@catalog/gateway/api-types";
import { importMapping, mappingText } from "../../lib/imports";

/**
 * "Columns read with your saved mapping “Supplier A”" or "with the mapping you chose", on a line
 * of its own under the header's first; nothing when they were read automatically.
 */
export function MappingNote({ item }: { item: Import }) {
  const mapping = importMapping(item);
  return mapping ? <span className="header-sub">{mappingText(mapping)}</span> : null;
}
