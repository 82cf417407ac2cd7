// The catalog product (as the API shows it: money as { amount, currency }) as adapters take it.
// One mapping for the publish worker and the gateway's dry run, so both check the same product.
import type { PublishableProduct } from "./adapter.js";

interface Money {
  amount: string;
  currency: string;
}

/**
 * The parts of a catalog product view that publishing reads (the db package's ProductView fits).
 */
export interface CatalogProduct {
  id: string;
  sku: string | null;
  title: string;
  description: string | null;
  brand: string | null;
  gtin: string | null;
  mpn: string | null;
  price: Money | null;
  images: string[];
  availability: string | null;
  /** Units in stock, null (or absent) when unknown. */
  quantity?: number | null;
  attributes: Record<string, unknown>;
  variants: {
    sku: string | null;
    title: string | null;
    price: Money | null;
    options: Record<string, string>;
    gtin: string | null;
    quantity?: number | null;
  }[];
}

/** Money as decimal strings, never floats. */
export const toPublishable = (p: CatalogProduct): PublishableProduct => ({
  id: p.id,
  sku: p.sku,
  title: p.title,
  description: p.description,
  brand: p.brand,
  gtin: p.gtin,
  mpn: p.mpn,
  priceAmount: p.price?.amount ?? null,
  priceCurrency: p.price?.currency ?? null,
  images: p.images,
  availability: p.availability,
  quantity: p.quantity ?? null,
  attributes: p.attributes,
  variants: p.variants.map((v) => ({
    sku: v.sku,
    title: v.title,
    priceAmount: v.price?.amount ?? null,
    options: v.options,
    gtin: v.gtin,
    quantity: v.quantity ?? null,
  })),
});
