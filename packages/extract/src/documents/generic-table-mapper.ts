import type { GenericField } from "./column-names.js";
import type { ColumnAssignment, MappedField } from "./column-mapping.js";
import { MalformedDocumentError } from "./document-errors.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { buildGenericProduct, type FieldHit } from "./generic-product.js";

/**
 * Any spreadsheet read column by column (`assignments`: recognised headers, or the uploader's
 * mapping): one row, one product.
 */
export function genericTableMapper(
  headers: readonly string[],
  assignments: readonly ColumnAssignment[],
  defaultCurrency: string | null,
): TableMapper {
  const byField = new Map<MappedField, ColumnAssignment[]>();
  for (const assignment of assignments) {
    const list = byField.get(assignment.field) ?? [];
    list.push(assignment);
    byField.set(assignment.field, list);
  }
  for (const list of byField.values()) list.sort((a, b) => a.rank - b.rank);
  if (!byField.has("title")) {
    const found = headers
      .filter((h) => h.trim() !== "")
      .slice(0, 12)
      .map((h) => `"${h.trim()}"`)
      .join(", ");
    throw new MalformedDocumentError(
      `the header row has no Title or Name column (found ${found || "no column names"}); name the product-name column "Title" or "Name"`,
    );
  }
  const columns = (field: MappedField) => byField.get(field) ?? [];
  // Until variants are read from parent and option columns, options are kept as attributes.
  const attributeColumns = [...columns("attribute"), ...columns("option")];

  return {
    push(record: TableRecord): DocumentRow[] {
      const { cells } = record;
      const hits = (field: GenericField): FieldHit[] =>
        columns(field as MappedField).map((c) => ({
          value: cells[c.index],
          method: `column ${c.header}`,
        }));
      const attributes: Record<string, unknown> = {};
      for (const { index, header, name } of attributeColumns) {
        const value = cells[index]?.trim();
        if (value) attributes[name ?? header] = value;
      }
      const result = buildGenericProduct(
        { hits },
        {
          label: `row ${record.row}`,
          titleHint: "expected a Title/Name column",
          defaultCurrency,
          attributes,
        },
      );
      return [
        result.ok
          ? { row: record.row, ok: true, product: result.product }
          : { row: record.row, ok: false, error: result.error },
      ];
    },
    end: () => [],
  };
}
