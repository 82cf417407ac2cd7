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
  /**
   * For options and attributes named by another cell of the row (`Option1 Value` by
   * `Option1 Name`): that column's index; `name` is used when that cell is empty.
   */
  nameColumn?: number;
}

/** A catalog field of the generic reading, as a mapped field. */
const FROM_GENERIC: Partial<Record<GenericField, MappedField>> = { variants: "ignore" };

/** Headers (normalised) of the column naming the product a variant row belongs to. */
export const PARENT_HEADERS: readonly string[] = [
  "parentsku",
  "parent",
  "parentid",
  "parentproduct",
  "parentproductsku",
  "parentreference",
  "parentcode",
  "itemgroupid",
  "groupid",
  "productgroupid",
  "variantof",
];

/**
 * Headers (normalised) of a column holding one option of a variant, named by its header: the
 * option words of shops and Google's variant attributes. On a sheet without a parent column they
 * are read as attributes, as before.
 */
export const OPTION_HEADERS: readonly string[] = [
  "color",
  "colour",
  "size",
  "material",
  "style",
  "pattern",
  "gender",
  "agegroup",
  "farbe",
  "größe",
  "grösse",
  "groesse",
  "couleur",
  "taille",
  "talla",
  "kleur",
  "maat",
  "colore",
  "taglia",
];

/** "Option1 Name" + "Option1 Value", "Attribute 1 name" + "Attribute 1 value(s)": name, value. */
const PAIRED_OPTION = /^(option|attribute|variation)(\d+)(name|values?)$/;

/**
 * The automatic reading of a header row: a recognised header is its field, a parent column
 * `parent`, an option column (or a value column with its name column) `option`, any other named
 * column an attribute under its header; unnamed columns are left out.
 */
export function recogniseColumns(headers: readonly string[]): ColumnAssignment[] {
  const assignments: ColumnAssignment[] = [];
  const normalised = headers.map((h) => normaliseName(h));
  const nameColumns = new Map<string, number>();
  normalised.forEach((n, i) => {
    const pair = PAIRED_OPTION.exec(n);
    if (pair && pair[3] === "name" && !nameColumns.has(`${pair[1]}${pair[2]}`))
      nameColumns.set(`${pair[1]}${pair[2]}`, i);
  });
  headers.forEach((raw, index) => {
    const header = raw.trim();
    if (header === "") return;
    const n = normalised[index]!;
    const pair = PAIRED_OPTION.exec(n);
    const nameColumn = pair ? nameColumns.get(`${pair[1]}${pair[2]}`) : undefined;
    if (pair && nameColumn !== undefined) {
      if (pair[3] === "name")
        assignments.push({ index, header, field: "ignore", name: null, rank: 0 });
      else assignments.push({ index, header, field: "option", name: header, rank: 0, nameColumn });
      return;
    }
    const parentRank = PARENT_HEADERS.indexOf(n);
    if (parentRank >= 0) {
      assignments.push({ index, header, field: "parent", name: null, rank: parentRank });
      return;
    }
    if (OPTION_HEADERS.includes(n)) {
      assignments.push({ index, header, field: "option", name: header, rank: 0 });
      return;
    }
    const match = genericFieldOf(n);
    if (!match) {
      assignments.push({ index, header, field: "attribute", name: header, rank: 0 });
      return;
    }
    const field = FROM_GENERIC[match.field] ?? (match.field as MappedField);
    assignments.push({ index, header, field, name: null, rank: match.rank });
  });
  return assignments;
}
