// A product's shapes, shared by the product, import and extension routes.
import { Type } from "typebox";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/**
 * The bounds of a product's fields on every write and answer: what a page read is fitted to
 * before it is stored (importing/page-read-bounds.ts), so that it can be answered as it is stored.
 */
export const PRODUCT_LIMITS = {
  title: 500,
  identifier: 255,
  description: 100_000,
  url: 2048,
  images: 100,
  variantGtin: 32,
  availability: 64,
  variants: 1000,
  optionName: 100,
  optionValue: 255,
  attributeName: 100,
} as const;
/** A price's amount: up to 15 digits and 4 decimals (the column is numeric(19, 4)). */
export const AMOUNT_PATTERN = "^\\d{1,15}(\\.\\d{1,4})?$";
export const CURRENCY_PATTERN = "^[A-Z]{3}$";
export const GTIN_PATTERN = "^\\d{8,14}$";

export const MoneySchema = Type.Object(
  {
    amount: Type.String({
      pattern: AMOUNT_PATTERN,
      description: 'Decimal as a string, e.g. "19.99"',
    }),
    currency: Type.String({ pattern: CURRENCY_PATTERN, description: "ISO-4217 code" }),
  },
  { additionalProperties: false },
);

const Url = Type.String({ format: "uri", maxLength: PRODUCT_LIMITS.url });

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
  sku: Nullable(Type.String({ maxLength: PRODUCT_LIMITS.identifier })),
  title: Nullable(Type.String({ maxLength: PRODUCT_LIMITS.title })),
  price: Nullable(MoneySchema),
  options: Type.Record(
    Type.String({ maxLength: PRODUCT_LIMITS.optionName }),
    Type.String({ maxLength: PRODUCT_LIMITS.optionValue }),
  ),
  gtin: Nullable(Type.String({ maxLength: PRODUCT_LIMITS.variantGtin })),
  availability: Nullable(Type.String({ maxLength: PRODUCT_LIMITS.availability })),
  image: Nullable(Url),
  quantity: Type.Optional(
    Quantity(
      "Units of this variant in stock (an integer from 0); null when unknown, as is an absent one (answers always state it).",
    ),
  ),
});

/** Fields a client may edit; every one optional in a PATCH. */
const editable = {
  title: Type.String({ minLength: 1, maxLength: PRODUCT_LIMITS.title }),
  sku: Nullable(Type.String({ minLength: 1, maxLength: PRODUCT_LIMITS.identifier })),
  description: Type.Union([Type.String({ maxLength: PRODUCT_LIMITS.description }), Type.Null()], {
    description:
      "HTML cleaned against an allow-list (paragraphs, line breaks, headings, lists, tables, bold, italic, http(s) and mailto " +
      "links; no scripts, styles, event handlers, images or other attributes). Sent plain text (no HTML tag in it) is stored escaped, " +
      "each blank-line-separated paragraph a <p> and each line break a <br />. The same form on every write (edits and imports) and every read.",
  }),
  price: Nullable(MoneySchema),
  images: Type.Array(Url, { maxItems: PRODUCT_LIMITS.images }),
  brand: Nullable(Type.String({ maxLength: PRODUCT_LIMITS.identifier })),
  gtin: Nullable(Type.String({ pattern: GTIN_PATTERN })),
  mpn: Nullable(Type.String({ maxLength: PRODUCT_LIMITS.identifier })),
  availability: Nullable(
    Type.String({
      maxLength: PRODUCT_LIMITS.availability,
      description: "schema.org ItemAvailability name, e.g. InStock",
    }),
  ),
  quantity: Quantity("Units in stock (an integer from 0); null when unknown."),
  variants: Type.Array(VariantSchema, { maxItems: PRODUCT_LIMITS.variants }),
  attributes: Type.Record(Type.String({ maxLength: PRODUCT_LIMITS.attributeName }), Type.Unknown()),
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
