import { findCurrencyTokens } from "../price/currency-symbols.js";

/** Digits right after a currency sign ("€ 89,99", "$5"). */
const AMOUNT_AFTER = /^\s?\d+(?:[.,' \u00a0]\d{3})*(?:[.,]\d{1,2})?(?!\d)/u;
/** Digits right before a currency sign ("89,99 €"). */
const AMOUNT_BEFORE = /(?<![\d.,])\d+(?:[.,' \u00a0]\d{3})*(?:[.,]\d{1,2})?\s?$/u;
/** A sum with cents: an ISO code counts only beside one ("CAD 3" is a model, "CAD 3.50" a price). */
const CENTS = /[.,]\d{2}(?!\d)/;
/** What joins a price to a name: "Trail Runner 2 – 89,99 €", "(€ 12)". */
const JOINERS = /^[\s|\-–—:·•,(]+|[\s|\-–—:·•,(]+$/gu;

/** Where a price (a currency sign or code beside an amount) sits in a text, or null. */
export function priceSpan(text: string): { index: number; end: number } | null {
  if (!/\d/.test(text)) return null;
  for (const token of findCurrencyTokens(text)) {
    const iso = /^[A-Z]{3}$/.test(text.slice(token.index, token.end));
    const after = AMOUNT_AFTER.exec(text.slice(token.end));
    if (after && (!iso || CENTS.test(after[0])))
      return { index: token.index, end: token.end + after[0].length };
    const before = AMOUNT_BEFORE.exec(text.slice(0, token.index));
    if (before && (!iso || CENTS.test(before[0])))
      return { index: token.index - before[0].length, end: token.end };
  }
  return null;
}

/** The text carries a price: "Buy Trail Runner 2 for only €89.99". */
export function hasPrice(text: string): boolean {
  return priceSpan(text) !== null;
}

/** After a price, the name goes on only past a separator ("$60 · Vintage board"). */
const SET_APART = /^\s*\)?\s*$|^\s*\)?\s*[|\-–—:·•,/]/u;

/**
 * A name with the price a heading shows beside it ("Trail Runner 2 – 89,99 €") is the name
 * alone; a text that is only a price stays as it is, and so does a price the name reads on
 * from ("$100 Gift Card").
 */
export function withoutPrice(text: string): string {
  const span = priceSpan(text);
  if (!span || !SET_APART.test(text.slice(span.end))) return text;
  const head = text.slice(0, span.index).replace(JOINERS, "");
  const tail = text
    .slice(span.end)
    .replace(/^\s*\)/u, "")
    .replace(JOINERS, "");
  const rest = [head, tail].filter((part) => part !== "").join(" ");
  return rest === "" ? text : rest;
}
