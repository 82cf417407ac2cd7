import type { Import } from "@catalog/gateway/api-types";
import type { ImportMappingUse } from "../../api/column-types";

/**
 * "Columns read with your saved mapping “Supplier A”" or "with the mapping you chose", on a line
 * of its own under the header's first; nothing when they were read automatically.
 */
export function MappingNote({ item }: { item: Import }) {
  const mapping = (item as Import & { mapping?: ImportMappingUse | null }).mapping;
  if (!mapping) return null;
  return (
    <span className="header-sub">
      {mapping.source === "template" ? (
        <>
          Columns read with your saved mapping{" "}
          <strong>“{mapping.templateName ?? "(deleted since)"}”</strong>
        </>
      ) : (
        "Columns read with the mapping you chose"
      )}
    </span>
  );
}
