import { MAX_QUANTITY, availabilityFor } from "@catalog/values";
import type { ProductCandidate } from "../product-candidate.js";
import { textOf, toAvailability } from "./cell-values.js";
import { clip, documentSource } from "./price-fields.js";

/**
 * A stock cell: a count ("12", 12, "12.0" from a spreadsheet), an availability word some files
 * put in their stock column ("in stock", "yes"), or neither: "bad" carries the message naming the
 * cell (text, a negative count, a fraction, a count beyond what the catalog stores).
 */
export type StockCell = { quantity: number } | { availability: string } | { error: string } | null;

const COUNT = /^\+?(\d+)(?:\.0+)?$/;

export function readStockCell(value: unknown, method: string, label: string): StockCell {
  const text = textOf(value);
  if (text === null) return null;
  const count = COUNT.exec(text);
  if (count) {
    const quantity = Number(count[1]);
    if (quantity <= MAX_QUANTITY) return { quantity };
  } else if (!/^[-+]?[\d.,]+$/.test(text)) {
    const availability = toAvailability(value);
    if (availability) return { availability };
  }
  return {
    error: `${label}: cannot read the stock "${clip(text)}" (${method}): a stock is a whole number from 0 to ${MAX_QUANTITY}`,
  };
}

/** The first stock cell among `hits` that says something, with the method of its column or key. */
export function readStockHits(
  hits: readonly { value: unknown; method: string }[],
  label: string,
): (Exclude<StockCell, null> & { method: string }) | null {
  for (const hit of hits) {
    const cell = readStockCell(hit.value, hit.method, label);
    if (cell) return { ...cell, method: hit.method };
  }
  return null;
}

/** Puts a stock cell on the product: its count, or (for a word) its availability when it has none. */
export function applyStock(
  product: ProductCandidate,
  cell: Exclude<StockCell, { error: string } | null>,
  method: string,
): void {
  if ("quantity" in cell) {
    product.quantity = cell.quantity;
    product.provenance.quantity = documentSource(method);
  } else if (product.availability === null) {
    product.availability = cell.availability;
    product.provenance.availability = documentSource(method);
  }
}

/** A product without a count of its own has its variants' total, when every variant states one. */
export function quantityFromVariants(product: ProductCandidate, method: string): void {
  const { variants } = product;
  if (product.quantity !== null || variants.length === 0) return;
  if (!variants.every((v) => typeof v.quantity === "number")) return;
  const total = variants.reduce((sum, v) => sum + v.quantity!, 0);
  product.quantity = Math.min(total, MAX_QUANTITY);
  product.provenance.quantity = documentSource(method);
}

/**
 * The product's availability as its known quantity implies (the catalog's stock rule,
 * `availabilityFor`), credited to the stock column when that changed it.
 */
export function followStock(product: ProductCandidate): void {
  const availability = availabilityFor(product.quantity, product.availability);
  if (availability === product.availability) return;
  product.availability = availability;
  if (product.provenance.quantity) product.provenance.availability = product.provenance.quantity;
}
