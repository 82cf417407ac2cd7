import type { Money, ProductVariant } from "@catalog/values";

/**
 * Where one extracted field came from, so that a later re-import can be compared field by field.
 */
export interface FieldSource {
  /**
   * "json-ld", "microdata", "rdfa", "opengraph", "meta", "shopify", "woocommerce", "heuristic",
   * "document", "extension"
   */
  source: string;
  /** How, within that source: e.g. "Product.offers.price", "og:title", "column Variant SKU". */
  method: string;
}

export type CandidateField =
  | "title"
  | "sku"
  | "gtin"
  | "mpn"
  | "brand"
  | "description"
  | "price"
  | "availability"
  | "quantity"
  | "images"
  | "variants"
  | "attributes"
  | "sourceUrl";

/**
 * A product as read from a page or a document row, before it meets the catalog. Absent
 * values are null (or empty lists), never guessed.
 */
export interface ProductCandidate {
  title: string | null;
  sku: string | null;
  gtin: string | null;
  mpn: string | null;
  brand: string | null;
  description: string | null;
  price: Money | null;
  /** A schema.org ItemAvailability name: "InStock", "OutOfStock", "PreOrder", ... */
  availability: string | null;
  /** Units in stock (an integer from 0), when the source states a count; null otherwise. */
  quantity: number | null;
  /** Absolute URLs, de-duplicated, in page order. */
  images: string[];
  variants: ProductVariant[];
  attributes: Record<string, unknown>;
  sourceUrl: string | null;
  provenance: Partial<Record<CandidateField, FieldSource>>;
}

export function emptyCandidate(sourceUrl: string | null = null): ProductCandidate {
  return {
    title: null,
    sku: null,
    gtin: null,
    mpn: null,
    brand: null,
    description: null,
    price: null,
    availability: null,
    quantity: null,
    images: [],
    variants: [],
    attributes: {},
    sourceUrl,
    provenance: {},
  };
}
