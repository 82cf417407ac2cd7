// Stock: how many units are on hand, and the availability word that must agree with it.
import type { ProductVariant } from "./product-values.js";

/** The largest quantity the catalog stores (PostgreSQL's integer). */
export const MAX_QUANTITY = 2_147_483_647;

/** Availability words that say "none on hand": a known quantity above 0 replaces them. */
const NONE_ON_HAND = new Set(["OutOfStock", "SoldOut"]);

/**
 * The availability a known quantity implies: 0 is "OutOfStock"; above 0, "InStock" in place of
 * an out-of-stock word or none, any other word ("PreOrder", "BackOrder", ...) kept. An unknown
 * quantity (null or absent) leaves the availability as it is.
 */
export function availabilityFor(
  quantity: number | null | undefined,
  availability: string | null,
): string | null {
  if (quantity === null || quantity === undefined) return availability;
  if (quantity === 0) return "OutOfStock";
  return availability === null || NONE_ON_HAND.has(availability) ? "InStock" : availability;
}

/** The fields the stock rule reads and writes; any of them may be absent. */
export interface StockFields {
  quantity?: number | null;
  availability?: string | null;
  variants?: ProductVariant[];
}

/**
 * `fields` with the stock rule applied, the one every write path runs on the fields it is about
 * to store: the product's availability and each variant's follow their quantity
 * (availabilityFor), and every variant states its quantity (null when unknown). Fields that are
 * absent stay absent.
 */
export function withStock<T extends StockFields>(fields: T): T {
  const out = { ...fields };
  if ("quantity" in fields || "availability" in fields)
    out.availability = availabilityFor(fields.quantity, fields.availability ?? null);
  if (fields.variants)
    out.variants = fields.variants.map((v) => ({
      ...v,
      quantity: v.quantity ?? null,
      availability: availabilityFor(v.quantity, v.availability),
    }));
  return out;
}
