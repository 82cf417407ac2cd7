import { genericFieldOf, normaliseName, type GenericField } from "./column-names.js";
import { MalformedDocumentError } from "./document-errors.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { buildGenericProduct, type FieldHit } from "./generic-product.js";

interface Column {
  index: number;
  method: string;
}

/** Any spreadsheet with recognisable headers: one row, one product. */
export function genericTableMapper(
  headers: readonly string[],
  defaultCurrency: string | null,
): TableMapper {
  const byField = new Map<GenericField, (Column & { rank: number })[]>();
  const extraColumns: { index: number; header: string }[] = [];
  headers.forEach((header, index) => {
    const match = genericFieldOf(normaliseName(header));
    if (!match) {
      if (header.trim() !== "") extraColumns.push({ index, header: header.trim() });
      return;
    }
    const list = byField.get(match.field) ?? [];
    list.push({ index, method: `column ${header.trim()}`, rank: match.rank });
    byField.set(match.field, list);
  });
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
  const columns = (field: GenericField) => byField.get(field) ?? [];

  return {
    push(record: TableRecord): DocumentRow[] {
      const { cells } = record;
      const hits = (field: GenericField): FieldHit[] =>
        columns(field).map((c) => ({ value: cells[c.index], method: c.method }));
      const attributes: Record<string, unknown> = {};
      for (const { index, header } of extraColumns) {
        const value = cells[index]?.trim();
        if (value) attributes[header] = value;
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
