import { genericFieldOf, normaliseName, type GenericField } from "./column-names.js";

/**
 * What a table column can be read as: a catalog field, the parent a variant row belongs to, an
 * option of the variant (its name defaults to the header), an attribute, or nothing.
 */
export const MAPPED_FIELDS = [
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
  "images",
  "description",
  "availability",
  "sourceUrl",
  "parent",
  "option",
  "attribute",
  "ignore",
] as const;

export type MappedField = (typeof MAPPED_FIELDS)[number];

/** One column as the uploader reads it: `column` is the header as the file writes it. */
export interface ColumnMappingEntry {
  column: string;
  field: MappedField;
  /** The option's or attribute's name; the header when left out. */
  name?: string;
}

/**
 * A reading of a table's columns given with the upload (or saved as an org template). Columns it
 * does not name keep their automatic reading.
 */
export interface ColumnMapping {
  columns: ColumnMappingEntry[];
}

/** How one column of a table is read. */
export interface ColumnAssignment {
  index: number;
  /** The header, trimmed. */
  header: string;
  field: MappedField;
  /** For options and attributes: the name they are stored under. */
  name: string | null;
  /** Among columns of one field, lower is preferred (the first non-empty cell wins). */
  rank: number;
}

/** A catalog field of the generic reading, as a mapped field. */
const FROM_GENERIC: Partial<Record<GenericField, MappedField>> = { variants: "ignore" };

/**
 * The automatic reading of a header row: a recognised header is its field, any other named
 * column an attribute under its header; unnamed columns are left out.
 */
export function recogniseColumns(headers: readonly string[]): ColumnAssignment[] {
  const assignments: ColumnAssignment[] = [];
  headers.forEach((raw, index) => {
    const header = raw.trim();
    if (header === "") return;
    const match = genericFieldOf(normaliseName(header));
    if (!match) {
      assignments.push({ index, header, field: "attribute", name: header, rank: 0 });
      return;
    }
    const field = FROM_GENERIC[match.field] ?? (match.field as MappedField);
    assignments.push({ index, header, field, name: null, rank: match.rank });
  });
  return assignments;
}
