import { availabilityFor, type Money, type ProductVariant } from "@catalog/values";
import type { ProductCandidate } from "../product-candidate.js";
import { readPrice, type PriceRead } from "./cell-values.js";

/**
 * Where a price's currency comes from, most specific first: a sign or code in the price cell,
 * the row's Currency column, then the store currency the caller passed. `Money` needs a
 * currency, and Shopify/WooCommerce exports never state one: without any of the three the amount
 * is kept in `attributes.priceWithoutCurrency` (and `variantPricesWithoutCurrency`) rather than
 * guessed, and `price` stays null.
 */
export interface CurrencyContext {
  rowCurrency: string | null;
  defaultCurrency: string | null;
}

export function toMoney(
  read: Extract<PriceRead, { kind: "ok" }>,
  ctx: CurrencyContext,
): Money | null {
  const currency = read.currency ?? ctx.rowCurrency ?? ctx.defaultCurrency;
  return currency ? { amount: read.amount, currency } : null;
}

export function documentSource(method: string) {
  return { source: "document", method };
}

/** Sets the product price (or keeps the amount aside when no currency is known). */
export function applyPrice(
  product: ProductCandidate,
  read: Extract<PriceRead, { kind: "ok" }>,
  method: string,
  ctx: CurrencyContext,
): void {
  const money = toMoney(read, ctx);
  if (money) {
    product.price = money;
    product.provenance.price = documentSource(method);
  } else {
    product.attributes.priceWithoutCurrency = read.amount;
  }
}

/** A price cell read against the row's currency; "bad" carries an error message naming the cell. */
export function readPriceCell(
  value: unknown,
  method: string,
  label: string,
  ctx: CurrencyContext,
): { read: Extract<PriceRead, { kind: "ok" }> } | { error: string } | null {
  const read = readPrice(value, ctx.rowCurrency ?? ctx.defaultCurrency);
  if (read.kind === "none") return null;
  if (read.kind === "bad")
    return { error: `${label}: cannot read the price "${clip(read.text)}" (${method})` };
  return { read };
}

export interface VariantDraft {
  variant: ProductVariant;
  amountWithoutCurrency: string | null;
}

export function variantDraft(
  fields: Omit<ProductVariant, "price">,
  read: Extract<PriceRead, { kind: "ok" }> | null,
  ctx: CurrencyContext,
): VariantDraft {
  const price = read ? toMoney(read, ctx) : null;
  return {
    variant: { ...fields, price },
    amountWithoutCurrency: read && !price ? read.amount : null,
  };
}

/**
 * Puts finished variants on the product; the first variant gives the product sku/price/gtin when it
 * has none.
 */
export function attachVariants(
  product: ProductCandidate,
  drafts: readonly VariantDraft[],
  method: string,
): void {
  if (drafts.length === 0) return;
  // A variant's availability follows its known quantity, as the catalog's stock rule has it.
  product.variants = drafts.map(({ variant: v }) =>
    v.quantity === null || v.quantity === undefined
      ? v
      : { ...v, availability: availabilityFor(v.quantity, v.availability) },
  );
  product.provenance.variants = documentSource(method);
  if (drafts.some((d) => d.amountWithoutCurrency !== null)) {
    product.attributes.variantPricesWithoutCurrency = drafts.map((d) => d.amountWithoutCurrency);
    if (product.price === null && product.attributes.priceWithoutCurrency === undefined) {
      product.attributes.priceWithoutCurrency = drafts[0]!.amountWithoutCurrency;
    }
  }
}

export function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
