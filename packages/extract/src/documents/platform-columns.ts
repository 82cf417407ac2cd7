import type { ProductCandidate } from "../product-candidate.js";
import { absoluteUrl } from "./cell-values.js";
import { documentSource } from "./price-fields.js";

/**
 * Column access for the platform mappers (Magento, PrestaShop, BigCommerce): cells by normalised
 * header name, with the first present of several names, and "column <header as written>" labels
 * for provenance and messages.
 */
export interface PlatformColumns {
  /** The first of `names` the header has, or undefined. */
  pick(...names: string[]): string | undefined;
  /** The trimmed cell of the first of `names` the header has ("" when none or empty). */
  get(cells: readonly string[], ...names: string[]): string;
  /** "column Price tax included": how provenance and messages name a column. */
  label(name: string): string;
}

export function platformColumns(
  headers: readonly string[],
  index: ReadonlyMap<string, number>,
): PlatformColumns {
  const labels = new Map<string, string>();
  const pick = (...names: string[]) => names.find((n) => index.has(n));
  return {
    pick,
    get(cells, ...names) {
      const name = pick(...names);
      return name === undefined ? "" : (cells[index.get(name)!] ?? "").trim();
    },
    label(name) {
      let text = labels.get(name);
      if (text === undefined) {
        const i = index.get(name);
        text = `column ${i === undefined ? name : headers[i]!.trim()}`;
        labels.set(name, text);
      }
      return text;
    },
  };
}

type TextField = "title" | "sku" | "gtin" | "mpn" | "brand" | "description" | "availability";

/** Sets a text field with its provenance when the value is not empty. */
export function setText(
  product: ProductCandidate,
  key: TextField,
  value: string | null,
  method: string,
): void {
  if (!value) return;
  product[key] = value;
  product.provenance[key] = documentSource(method);
}

/**
 * Image cells split into absolute URLs (kept) and everything else (file names or paths relative
 * to a store's media folder, which cannot be fetched without the store's address).
 */
export function splitImages(values: readonly string[]): { urls: string[]; relative: string[] } {
  const urls: string[] = [];
  const relative: string[] = [];
  for (const value of values) {
    const url = absoluteUrl(value);
    if (url) {
      if (!urls.includes(url)) urls.push(url);
    } else if (value && value !== "no_selection" && !relative.includes(value)) {
      relative.push(value);
    }
  }
  return { urls, relative };
}

/** Adds up two plain decimal amounts ("12.50" + "-1.5") to 2 places, never below 0. */
export function addAmounts(a: string, b: string): string {
  const cents = Math.round(Number(a) * 100) + Math.round(Number(b) * 100);
  return (Math.max(0, cents) / 100).toFixed(2);
}
