import { Type } from "typebox";

/** @catalog/extract's MAPPED_FIELDS (checked equal in index.ts; schema modules import only typebox). */
export const MAPPED_FIELD_NAMES = [
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

const Time = Type.String({ format: "date-time" });

export const MappedFieldSchema = Type.Enum([...MAPPED_FIELD_NAMES], {
  description:
    "What the column is read as: a catalog field, the parent SKU a variant row belongs to (parent), an option of the variant " +
    "(option: its name defaults to the header), an attribute, or nothing (ignore)",
});

export const ColumnMappingSchema = Type.Object(
  {
    columns: Type.Array(
      Type.Object({
        column: Type.String({
          minLength: 1,
          maxLength: 1000,
          description: "A header as the file writes it (compared trimmed, in any case)",
        }),
        field: MappedFieldSchema,
        name: Type.Optional(
          Type.String({
            maxLength: 200,
            description: "For option and attribute: the name it is stored under",
          }),
        ),
      }),
      { maxItems: 500 },
    ),
  },
  {
    description:
      "How a table's columns are read; the columns it does not name keep the automatic reading",
  },
);

export const ImportMappingSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  headers: Type.Array(Type.String(), { description: "The headers as the file writes them" }),
  mapping: ColumnMappingSchema,
  createdAt: Time,
  updatedAt: Time,
  lastUsedAt: Type.Union([Time, Type.Null()], {
    description: "When an upload was last read with it",
  }),
});

export const ImportMappingListSchema = Type.Object({ items: Type.Array(ImportMappingSchema) });

export const SaveImportMappingBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80 }),
  headers: Type.Array(Type.String({ maxLength: 1000 }), { minItems: 1, maxItems: 1000 }),
  mapping: ColumnMappingSchema,
});

export const ImportMappingParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
