import type { ElementNode } from "./dom.js";

/**
 * What an element's class and id say about the price it holds, read as whole words: "old"
 * marks "price--old" and "oldPrice", never "price-holder" or "bold". Names are split at
 * anything not a letter or digit and at camelCase humps, and lower-cased.
 */

// An old price: the one before a sale, or a list price the shop compares with.
const OLD =
  String.raw`old was regular strike\w* before compare\w* rrp uvp msrp original crossed`.split(" ");
// Not the product's price at all: a saving, a unit price, shipping, an instalment...
const OTHER =
  String.raw`saving savings save per\s?unit shipping delivery instal\w* monthly per\s?month financ\w* basket cart tax vat points`.split(
    " ",
  );
// The price paid now ("offer" and "deal" name too many prices: a card holder's, a bundle's).
const NOW = String.raw`sale current final now special actual promo reduced new discount\w*`.split(
  " ",
);

/**
 * Whole words, alone or run into "price" ("oldprice", "pricewas"), and words that say it only
 * before "price" ("list price", "unitPrice"; a list or a unit alone is something else).
 */
function words(alone: string[], beforePrice: string[] = []): RegExp {
  const parts = [String.raw` (?:price)?(?:${alone.join("|")})(?:price)? `];
  if (beforePrice.length > 0) parts.push(String.raw` (?:${beforePrice.join("|")}) ?price `);
  return new RegExp(parts.join("|"));
}

const OLD_WORDS = words(OLD, ["list"]);
const NOT_CURRENT_WORDS = words([...OLD, ...OTHER], ["list", "unit", "base"]);
const NOW_WORDS = words(NOW);
const CURRENT_WORDS = words([
  ...NOW,
  ..."offer deal our main buy".split(" "),
  String.raw`product\w*`,
]);
const TILE_WORDS = words(["tiles?", "teasers?"]);
const PRICE_VALUE = / price ?(?:value|amount) /;

/** Class and id as words between spaces: " product old price ". */
function markerWords(raw: string): string {
  return ` ${raw
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

const NOT_CURRENT = 1;
const OLD_MARK = 2;
const NOW_MARK = 4;
const CURRENT = 8;
const TILE = 16;
// Pages repeat a few class names thousands of times: each is judged once per process.
const judged = new Map<string, number>();

function marks(el: ElementNode): number {
  const { class: className, id } = el.attribs;
  if (className === undefined && id === undefined) return 0;
  const raw = `${className ?? ""} ${id ?? ""}`;
  let flags = judged.get(raw);
  if (flags === undefined) {
    const marker = markerWords(raw);
    flags =
      (NOT_CURRENT_WORDS.test(marker) ? NOT_CURRENT : 0) |
      (OLD_WORDS.test(marker) ? OLD_MARK : 0) |
      (NOW_WORDS.test(marker) ? NOW_MARK : 0) |
      (CURRENT_WORDS.test(marker) || PRICE_VALUE.test(marker) ? CURRENT : 0) |
      (TILE_WORDS.test(marker) ? TILE : 0);
    if (judged.size >= 10_000) judged.clear();
    judged.set(raw, flags);
  }
  return flags;
}

/** Marked as a price that is not what the product costs now (old, per unit, shipping...). */
export function notCurrent(el: ElementNode): boolean {
  return (marks(el) & NOT_CURRENT) !== 0;
}

/** Marked as the old price beside the current one. */
export function oldMarked(el: ElementNode): boolean {
  return (marks(el) & OLD_MARK) !== 0;
}

/** Marked as the price paid now: sale, now, current, special... */
export function nowMarked(el: ElementNode): boolean {
  return (marks(el) & NOW_MARK) !== 0;
}

/** Marked as the product's current price, "now" words and the product's own block alike. */
export function currentMarked(el: ElementNode): boolean {
  return (marks(el) & CURRENT) !== 0;
}

/** Marked as a tile or teaser: a listing's card for another product. */
export function tileMarked(el: ElementNode): boolean {
  return (marks(el) & TILE) !== 0;
}
