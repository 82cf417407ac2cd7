import type { CheerioAPI, ElementNode } from "./dom.js";
import { newFound, setField, type Found, type PriceValue } from "./found.js";
import { findPagePrice } from "./page-price.js";
import { currencyCode } from "./read-amount.js";

interface Stated {
  price: PriceValue;
  method: string;
  from: Found;
}

/**
 * Markup stating several prices for the product (offers at different prices, JSON-LD and
 * OpenGraph disagreeing): the one the page shows as its price is the product's. Null when the
 * markup agrees with itself, or the page shows none of its prices, or shows the first one.
 */
export function shownMarkupPrice(
  $: CheerioAPI,
  known: Found[],
  title: ElementNode | null,
  currencyHint: string | null,
  pageUrl: string,
): Found | null {
  const first = known.find((f) => f.values.price !== undefined)?.values.price;
  if (!first) return null;
  const stated: Stated[] = known.flatMap((from) => [
    ...(from.values.price
      ? [{ price: from.values.price, method: from.methods.price ?? "price", from }]
      : []),
    ...(from.prices ?? []).map((p) => ({ ...p, from })),
  ]);
  if (new Set(stated.map((s) => Number(s.price.amount))).size < 2) return null;
  const shown = findPagePrice($, title, currencyHint, pageUrl)?.value;
  if (!shown || Number(shown.amount) === Number(first.amount)) return null;
  const match = stated.find(
    (s) => Number(s.price.amount) === Number(shown.amount) && sameCurrency(s, shown.currency),
  );
  if (!match) return null;
  const found = newFound(match.from.source);
  found.currency = match.from.currency ?? null;
  setField(
    found,
    "price",
    match.price,
    `${match.method} (the price the page shows; markup also states ${first.amount})`,
  );
  return found;
}

function sameCurrency(stated: Stated, shown: string | null): boolean {
  const own = currencyCode(stated.price.currency ?? stated.from.currency);
  return own === null || shown === null || own === shown;
}
