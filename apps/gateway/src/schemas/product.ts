// A product's shapes, shared by the product, import and extension routes.
import { Type } from "typebox";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const MoneySchema = Type.Object(
  {
    amount: Type.String({
      pattern: "^\\d{1,15}(\\.\\d{1,4})?$",
      description: 'Decimal as a string, e.g. "19.99"',
    }),
    currency: Type.String({ pattern: "^[A-Z]{3}$", description: "ISO-4217 code" }),
  },
  { additionalProperties: false },
);

const Url = Type.String({ format: "uri", maxLength: 2048 });

/** PostgreSQL's integer: the largest quantity the catalog stores. */
const MAX_QUANTITY = 2_147_483_647;

/** The stock rule, stated once for the product's and the variants' fields. */
const STOCK_RULE =
  "Availability follows a known quantity on every write (edits, imports, the extension): 0 makes it OutOfStock; above 0, an " +
  "absent or OutOfStock availability becomes InStock, while PreOrder, BackOrder and other words are kept.";

const Quantity = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0, maximum: MAX_QUANTITY }), Type.Null()], {
    description: `${description} ${STOCK_RULE}`,
  });

export const VariantSchema = Type.Object({
  sku: Nullable(Type.String({ maxLength: 255 })),
  title: Nullable(Type.String({ maxLength: 500 })),
  price: Nullable(MoneySchema),
  options: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 255 })),
  gtin: Nullable(Type.String({ maxLength: 32 })),
  availability: Nullable(Type.String({ maxLength: 64 })),
  image: Nullable(Url),
  quantity: Type.Optional(
    Quantity(
      "Units of this variant in stock (an integer from 0); null when unknown, as is an absent one (answers always state it).",
    ),
  ),
});

/** Fields a client may edit; every one optional in a PATCH. */
const editable = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  sku: Nullable(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()], {
    description:
      "HTML cleaned against an allow-list (paragraphs, line breaks, headings, lists, tables, bold, italic, http(s) and mailto " +
      "links; no scripts, styles, event handlers, images or other attributes). Sent plain text (no HTML tag in it) is stored escaped, " +
      "each blank-line-separated paragraph a <p> and each line break a <br />. The same form on every write (edits and imports) and every read.",
  }),
  price: Nullable(MoneySchema),
  images: Type.Array(Url, { maxItems: 100 }),
  brand: Nullable(Type.String({ maxLength: 255 })),
  gtin: Nullable(Type.String({ pattern: "^\\d{8,14}$" })),
  mpn: Nullable(Type.String({ maxLength: 255 })),
  availability: Nullable(
    Type.String({ maxLength: 64, description: "schema.org ItemAvailability name, e.g. InStock" }),
  ),
  quantity: Quantity("Units in stock (an integer from 0); null when unknown."),
  variants: Type.Array(VariantSchema, { maxItems: 1000 }),
  attributes: Type.Record(Type.String({ maxLength: 100 }), Type.Unknown()),
  sourceUrl: Nullable(Url),
};

/** The catalog fields of a product, as an import previews them before they are stored. */
export const ProductFieldsSchema = Type.Object(editable);

export const ProductPatchSchema = Type.Object(
  {
    ...(Object.fromEntries(Object.entries(editable).map(([k, s]) => [k, Type.Optional(s)])) as {
      [K in keyof typeof editable]: ReturnType<typeof Type.Optional<(typeof editable)[K]>>;
    }),
    version: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "If given, the edit applies only to this version (else 409)",
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ProductSchema = Type.Object({
  id: Type.String(),
  ...editable,
  title: Type.String(),
  source: Type.String(),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" }),
  version: Type.Integer(),
});
