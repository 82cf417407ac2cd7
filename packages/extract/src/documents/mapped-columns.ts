import {
  recogniseColumns,
  type ColumnAssignment,
  type ColumnMapping,
  type MappedField,
} from "./column-mapping.js";
import { MalformedDocumentError } from "./document-errors.js";
import { clip } from "./price-fields.js";

/** Fields a product has one value of: two columns mapped to one of them is a mistake. */
export const SINGLE_VALUE_FIELDS: ReadonlySet<MappedField> = new Set<MappedField>([
  "title",
  "sku",
  "price",
  "salePrice",
  "regularPrice",
  "currency",
  "quantity",
  "brand",
  "gtin",
  "mpn",
  "description",
  "availability",
  "sourceUrl",
  "parent",
]);

/** How headers are compared with a mapping's columns (and a template's headers): trim, lower-case. */
export function headerKeyOf(header: string): string {
  return header.trim().toLowerCase();
}

/**
 * The columns of `headers` read as `mapping` says; the columns it does not name keep the
 * automatic reading (`recogniseColumns`), except that a field the mapping gives to a column is no
 * longer read from another (an unnamed "Price" does not compete with the column mapped to price).
 * A column the file does not have, two columns mapped to one single-value field, and a reading
 * with no title column are MalformedDocumentErrors (422) naming the columns.
 */
export function applyMapping(
  headers: readonly string[],
  mapping: ColumnMapping,
  options: { needTitle: boolean } = { needTitle: true },
): ColumnAssignment[] {
  const byKey = new Map<string, number>();
  headers.forEach((header, index) => {
    const key = headerKeyOf(header);
    if (key !== "" && !byKey.has(key)) byKey.set(key, index);
  });
  const mapped = new Map<number, ColumnAssignment>();
  for (const entry of mapping.columns) {
    const index = byKey.get(headerKeyOf(entry.column));
    if (index === undefined) {
      throw new MalformedDocumentError(
        `the mapping names column "${clip(entry.column, 80)}", which the file's header row does not have; ` +
          `map one of its columns (${listed(headers)})`,
      );
    }
    const header = headers[index]!.trim();
    const named = entry.field === "option" || entry.field === "attribute";
    mapped.set(index, {
      index,
      header,
      field: entry.field,
      name: named ? entry.name?.trim() || header : null,
      rank: -1,
    });
  }
  const taken = new Set([...mapped.values()].map((a) => a.field));
  const assignments = recogniseColumns(headers).map((automatic) => {
    const given = mapped.get(automatic.index);
    if (given) return given;
    if (SINGLE_VALUE_FIELDS.has(automatic.field) && taken.has(automatic.field))
      return { ...automatic, field: "ignore" as const, name: null };
    return automatic;
  });
  checkAssignments(assignments, headers, options.needTitle);
  return assignments;
}

/**
 * 422 when two columns the mapping names are read as one single-value field, or (`needTitle`)
 * when no column is the title.
 */
export function checkAssignments(
  assignments: readonly ColumnAssignment[],
  headers: readonly string[],
  needTitle: boolean,
): void {
  const seen = new Map<MappedField, ColumnAssignment>();
  for (const assignment of assignments) {
    if (assignment.rank !== -1 || !SINGLE_VALUE_FIELDS.has(assignment.field)) continue;
    const before = seen.get(assignment.field);
    if (before) {
      throw new MalformedDocumentError(
        `the mapping reads both column "${clip(before.header, 80)}" and column "${clip(assignment.header, 80)}" as ${assignment.field}; ` +
          `a product has one ${assignment.field}: map one of them to another field, or to "ignore"`,
      );
    }
    seen.set(assignment.field, assignment);
  }
  if (needTitle && !assignments.some((a) => a.field === "title")) {
    throw new MalformedDocumentError(
      `no column is read as the title (the columns are ${listed(headers)}); map the product-name column to "title"`,
    );
  }
}

function listed(headers: readonly string[]): string {
  const names = headers
    .map((h) => h.trim())
    .filter((h) => h !== "")
    .slice(0, 12)
    .map((h) => `"${clip(h, 40)}"`);
  return names.length > 0 ? names.join(", ") : "no column names";
}

/** A column mapping sent with a document that has no columns (JSON, NDJSON). */
export function mappingNotApplicable(format: string): MalformedDocumentError {
  return new MalformedDocumentError(
    `a column mapping was sent with a ${format.toUpperCase()} document; mappings apply to CSV, TSV and XLSX files only: send it without one`,
  );
}
