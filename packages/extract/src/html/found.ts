import type { ProductVariant } from "@catalog/values";
import type { CandidateField } from "../product-candidate.js";

/** A price before it is known to have a currency (markup often states it elsewhere). */
export interface PriceValue {
  amount: string;
  currency: string | null;
}

export interface FoundValues {
  title: string;
  sku: string;
  gtin: string;
  mpn: string;
  brand: string;
  description: string;
  price: PriceValue;
  availability: string;
  images: string[];
  variants: ProductVariant[];
}

export type FoundField = keyof FoundValues;

/**
 * What one source (JSON-LD, microdata, ...) says about the product, with how it read each field.
 */
export interface Found {
  source: string;
  values: Partial<FoundValues>;
  methods: Partial<Record<CandidateField, string>>;
  /** The source itself says this is a product (a Product node, og:type product, ...). */
  isProduct: boolean;
  /** A currency the source states without tying it to a price it gives (Shopify.currency, ...). */
  currency?: string | null;
  /** Every price the source states for the product (each offer's), for the page to pick from. */
  prices?: { price: PriceValue; method: string }[];
}

export function newFound(source: string, isProduct = false): Found {
  return { source, values: {}, methods: {}, isProduct };
}

/** Keeps the first value given for a field; empty values are no value. */
export function setField<K extends FoundField>(
  found: Found,
  field: K,
  value: FoundValues[K] | null | undefined,
  method: string,
): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value) && value.length === 0) return;
  if (typeof value === "string" && value.trim() === "") return;
  if (found.values[field] !== undefined) return;
  found.values[field] = value;
  found.methods[field] = method;
}
