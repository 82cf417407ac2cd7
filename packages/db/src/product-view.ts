import type { Money, ProductVariant } from "@catalog/values";
import { storedDescription } from "./description.js";
import type { FieldChanges } from "./field-diff.js";
import type { Prisma, Product } from "./generated/client.js";

/** The catalog fields a client may set; `price` is the API's money shape. */
export interface ProductFields {
  title: string;
  sku: string | null;
  description: string | null;
  price: Money | null;
  images: string[];
  brand: string | null;
  gtin: string | null;
  mpn: string | null;
  availability: string | null;
  /** Units in stock (an integer from 0); null when unknown. */
  quantity: number | null;
  variants: ProductVariant[];
  attributes: Record<string, unknown>;
  sourceUrl: string | null;
}

/** A product as the API shows it: its catalog fields and what the service keeps about it. */
export interface ProductView extends ProductFields {
  id: string;
  source: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const PRODUCT_FIELDS = [
  "title",
  "sku",
  "description",
  "price",
  "images",
  "brand",
  "gtin",
  "mpn",
  "availability",
  "quantity",
  "variants",
  "attributes",
  "sourceUrl",
] as const satisfies readonly (keyof ProductFields)[];

/** Money amounts keep at least two decimals ("19.90"), and more only where the value has them. */
export function formatAmount(amount: Prisma.Decimal | string): string {
  const text = amount.toString();
  const [whole, fraction = ""] = text.split(".");
  const trimmed = fraction.replace(/0+$/, "");
  return `${whole}.${trimmed.padEnd(2, "0")}`;
}

/**
 * `fields` with its description, if it has one, in the stored form (every write path stores that).
 */
export function withStoredDescription<T extends Partial<ProductFields>>(fields: T): T {
  return "description" in fields
    ? { ...fields, description: storedDescription(fields.description) }
    : fields;
}

/**
 * A field diff with its description's `from` and `to` in the stored form (a diff kept from before
 * it).
 */
export function withStoredDescriptions(changes: FieldChanges): FieldChanges {
  const { description } = changes;
  if (!description) return changes;
  const stored = (value: unknown) => (typeof value === "string" ? storedDescription(value) : value);
  return {
    ...changes,
    description: { from: stored(description.from), to: stored(description.to) },
  };
}

/**
 * The columns a product's view is made of: a Prisma row, or the same columns read by SQL (the
 * catalog page, its amount as text).
 */
export type ProductViewRow = Pick<
  Product,
  | "id"
  | "title"
  | "sku"
  | "description"
  | "priceCurrency"
  | "images"
  | "brand"
  | "gtin"
  | "mpn"
  | "availability"
  | "quantity"
  | "variants"
  | "attributes"
  | "sourceUrl"
  | "source"
  | "version"
  | "createdAt"
  | "updatedAt"
> & { priceAmount: Prisma.Decimal | string | null };

/** The columns of a ProductViewRow, as SQL reads them from `products p`. */
export const VIEW_COLUMNS = `p.id, p.title, p.sku, p.description,
    p.price_amount::text AS "priceAmount", p.price_currency AS "priceCurrency", p.images, p.brand,
    p.gtin, p.mpn, p.availability, p.quantity, p.variants, p.attributes,
    p.source_url AS "sourceUrl", p.source::text AS source, p.version, p.created_at AS "createdAt",
    p.updated_at AS "updatedAt"`;

/**
 * A row's catalog fields; its description read through the stored form, so rows from before it (or
 * written by hand) come out clean too. `stored`: a description known to be in the stored form (an
 * import's, cleaned as it was read): a row holding exactly that is not cleaned again.
 */
export function fieldsOf(row: ProductViewRow, stored?: string | null): ProductFields {
  return {
    title: row.title,
    sku: row.sku,
    description:
      row.description !== null && row.description === stored
        ? row.description
        : storedDescription(row.description),
    price:
      row.priceAmount !== null && row.priceCurrency !== null
        ? { amount: formatAmount(row.priceAmount), currency: row.priceCurrency }
        : null,
    images: row.images,
    brand: row.brand,
    gtin: row.gtin,
    mpn: row.mpn,
    availability: row.availability,
    quantity: row.quantity,
    // Variants stored before stock was kept have no quantity: unknown.
    variants: (row.variants as unknown as ProductVariant[]).map((v) => ({
      ...v,
      quantity: v.quantity ?? null,
    })),
    attributes: row.attributes as Record<string, unknown>,
    sourceUrl: row.sourceUrl,
  };
}

export function toProductView(row: Product): ProductView {
  return productViewOf(row);
}

/**
 * The view of a product's columns however they were read (see ProductViewRow); `fields` when the
 * caller has them already (fieldsOf of the same row).
 */
export function productViewOf(row: ProductViewRow, fields = fieldsOf(row)): ProductView {
  return {
    id: row.id,
    ...fields,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

/** The columns that store `fields` (only those present). */
export function columnsOf(fields: Partial<ProductFields>): Prisma.ProductUncheckedUpdateInput {
  const { price, variants, attributes, ...plain } = fields;
  const data: Prisma.ProductUncheckedUpdateInput = { ...plain };
  if (price !== undefined) {
    data.priceAmount = price?.amount ?? null;
    data.priceCurrency = price?.currency ?? null;
  }
  if (variants !== undefined) data.variants = variants as unknown as Prisma.InputJsonValue;
  if (attributes !== undefined) data.attributes = attributes as Prisma.InputJsonValue;
  return data;
}
