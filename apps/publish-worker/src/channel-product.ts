import type { PublishableProduct } from "@catalog/channels";
import type { ProductView } from "@catalog/db";

/** The catalog product as channel adapters take it (money as decimal strings, never floats). */
export const toPublishable = (p: ProductView): PublishableProduct => ({
  id: p.id, sku: p.sku, title: p.title, description: p.description, brand: p.brand, gtin: p.gtin, mpn: p.mpn,
  priceAmount: p.price?.amount ?? null, priceCurrency: p.price?.currency ?? null, images: p.images,
  availability: p.availability, attributes: p.attributes,
  variants: p.variants.map((v) => ({ sku: v.sku, title: v.title, priceAmount: v.price?.amount ?? null, options: v.options, gtin: v.gtin })),
});
