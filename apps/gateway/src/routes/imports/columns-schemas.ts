import { Type } from "typebox";
import { DocumentPartsSchema } from "../../schemas/import.js";
import { MappedFieldSchema } from "../import-mappings/schemas.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** POST /api/imports/columns: the same parts as a document import. */
export const ColumnsPartsSchema = Type.Object({
  encoding: DocumentPartsSchema.properties.encoding,
  currency: DocumentPartsSchema.properties.currency,
  mapping: DocumentPartsSchema.properties.mapping,
  file: DocumentPartsSchema.properties.file,
});

const MoneySchema = Type.Object({ amount: Type.String(), currency: Type.String() });

const PreviewProductSchema = Type.Object(
  {
    title: Type.String(),
    sku: Nullable(Type.String()),
    price: Nullable(MoneySchema),
    currency: Nullable(Type.String()),
    quantity: Nullable(Type.Integer()),
    brand: Nullable(Type.String()),
    gtin: Nullable(Type.String()),
    images: Type.Array(Type.String()),
    variants: Type.Array(
      Type.Object({
        sku: Nullable(Type.String()),
        price: Nullable(MoneySchema),
        options: Type.Record(Type.String(), Type.String()),
        quantity: Nullable(Type.Integer()),
      }),
    ),
    attributes: Type.Record(Type.String(), Type.Unknown()),
  },
  { description: "The product the row reads as (the catalog's product fields)" },
);

export const ColumnsAnswerSchema = Type.Object({
  format: Type.Enum(["csv", "xlsx", "json", "ndjson", "xml"], {
    description: "csv for CSV and TSV",
  }),
  layout: Type.String({
    description: 'The platform the headers show ("shopify", "woocommerce", ...) or "generic"',
  }),
  mappable: Type.Boolean({ description: "CSV, TSV and XLSX: their columns can be mapped" }),
  template: Nullable(
    Type.Object(
      { id: Type.String(), name: Type.String() },
      {
        description:
          "The organisation's template for these headers (applied unless a mapping was sent)",
      },
    ),
  ),
  columns: Type.Array(
    Type.Object({
      column: Type.String({ description: "The header" }),
      samples: Type.Array(Type.String(), {
        description: "Up to 5 non-empty values of the first rows, each clipped to 80 characters",
      }),
      field: MappedFieldSchema,
      name: Nullable(Type.String({ description: "For option and attribute columns" })),
      recognised: Type.Boolean({ description: "The automatic reading found a field for it" }),
    }),
  ),
  needsMapping: Type.Boolean({
    description: "No column is read as the title: the file cannot be imported without a mapping",
  }),
  preview: Type.Array(
    Type.Union([
      Type.Object({ row: Type.Integer(), ok: Type.Literal(true), product: PreviewProductSchema }),
      Type.Object({ row: Type.Integer(), ok: Type.Literal(false), error: Type.String() }),
    ]),
  ),
});
