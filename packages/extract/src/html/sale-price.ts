import { parsePrice } from "../price/index.js";
import { boundedText, type CheerioAPI, type ElementNode } from "./dom.js";
import type { PriceValue } from "./found.js";
import {
  ancestors,
  ELSEWHERE,
  findPagePrice,
  isPriceNamed,
  marker,
  type PagePrice,
} from "./page-price.js";
import { matching, tagged } from "./page-index.js";
import { notCurrent } from "./price-markers.js";
import { cleanText } from "./text.js";

const STRUCK = ["del", "s", "strike"];
// Another product's price block: a listing tile or card, a related-products strip.
const OTHER_PRODUCT = /tile|card|teaser/i;

/**
 * Markup that was not updated for a sale: its price is the one the page shows struck through
 * or marked as the old price, and the page shows a lower current price. The shopper pays the
 * shown one, so it wins; otherwise (no struck copy of the markup's price) markup stays first.
 */
export function saleOverMarkup(
  $: CheerioAPI,
  markup: PriceValue,
  title: ElementNode | null,
  currencyHint: string | null,
  pageUrl?: string,
): PagePrice | null {
  const amount = Number(markup.amount);
  const old = [
    ...STRUCK.flatMap((tag) => tagged($, tag)),
    ...matching($, ["class", "id"], (el) => isPriceNamed(el) && notCurrent(el)),
  ];
  const whole = String(Math.trunc(amount));
  const struck = old.some((el) => {
    const text = cleanText(boundedText(el, 40));
    // Digits first (cheap): most old prices on a page are not this one.
    if (!text || !text.replace(/\D/g, "").includes(whole)) return false;
    const parsed = parsePrice(text, currencyHint ? { currency: currencyHint } : {});
    return (
      parsed !== null &&
      Number(parsed.amount) === amount &&
      !ancestors(el).some((a) => ELSEWHERE.test(marker(a)) || OTHER_PRODUCT.test(marker(a)))
    );
  });
  if (!struck) return null;
  const shown = findPagePrice($, title, currencyHint, pageUrl);
  if (!shown || !(Number(shown.value.amount) < amount)) return null;
  return {
    value: shown.value,
    method: `${shown.method} (markup's ${markup.amount} is shown as the old price)`,
  };
}
