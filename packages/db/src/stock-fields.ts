import { isDeepStrictEqual } from "node:util";
import { MAX_QUANTITY, withStock, type ProductVariant, type StockFields } from "@catalog/values";
import { invalid } from "./service-error.js";

const isQuantity = (value: unknown) =>
  value === null ||
  value === undefined ||
  (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_QUANTITY);

/**
 * `fields` as they are stored: quantities checked (the column has no CHECK; a quantity that is
 * not an integer from 0 to MAX_QUANTITY is a 422 naming the field) and the stock rule applied
 * (`withStock`: availability follows a known quantity, every variant states its quantity).
 */
export function storedStock<T extends StockFields>(fields: T): T {
  if (!isQuantity(fields.quantity))
    throw invalid(`field "quantity" must be an integer from 0 to ${MAX_QUANTITY}, or null`);
  fields.variants?.forEach((v, i) => {
    if (!isQuantity(v.quantity))
      throw invalid(
        `field "variants.${i}.quantity" must be an integer from 0 to ${MAX_QUANTITY}, or null`,
      );
  });
  return withStock(fields);
}

/** How a variant is recognised across imports: its SKU, else its options. */
const variantKey = (v: ProductVariant) =>
  v.sku ? `sku:${v.sku}` : `options:${JSON.stringify(Object.entries(v.options).sort())}`;

/**
 * An import's variants with the catalog's known quantity kept where the source gave none (a
 * document without a stock column does not forget the stock).
 */
export function keepKnownQuantities(
  next: ProductVariant[],
  current: ProductVariant[],
): ProductVariant[] {
  const known = new Map(
    current.filter((v) => typeof v.quantity === "number").map((v) => [variantKey(v), v.quantity]),
  );
  if (known.size === 0) return next;
  return next.map((v) =>
    typeof v.quantity === "number" || !known.has(variantKey(v))
      ? v
      : { ...v, quantity: known.get(variantKey(v))! },
  );
}

/** The stock fields (`availability`, `variants`) the rule changed between `before` and `after`. */
export function stockDerived<T extends StockFields>(before: T, after: T): Partial<T> {
  const out: Partial<T> = {};
  if (!isDeepStrictEqual(before.availability, after.availability))
    out.availability = after.availability;
  if (!isDeepStrictEqual(before.variants, after.variants)) out.variants = after.variants;
  return out;
}
