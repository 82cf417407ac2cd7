import { parsePrice } from "../price/index.js";
import { boundedText, documentOrder, isTag, type CheerioAPI, type ElementNode } from "./dom.js";
import { currentMarked, notCurrent, tileMarked } from "./price-markers.js";
import { isStruck, nowText, priceText } from "./price-text.js";
import type { PriceValue } from "./found.js";
import { matching, tagged } from "./page-index.js";
import { readAmount } from "./read-amount.js";
import { productIdFromUrl } from "./url-id.js";
import { cleanText } from "./text.js";

// Places holding other products' prices.
export const ELSEWHERE =
  /related|recommend|similar|carousel|upsell|cross-?sell|also-?(bought|viewed|like)|sponsored|recently/i;
const WAS_WORDS = /\b(was|statt|uvp|rrp|list price|avant|antes|prima|m\.?r\.?p)\b/i;
const INLINE = new Set([
  "span",
  "b",
  "strong",
  "sup",
  "sub",
  "small",
  "font",
  "em",
  "i",
  "u",
  "a",
  "bdi",
]);
// "3 x $806", "$806 per month": an instalment, not the price.
const INSTALMENT =
  /每期|分期|per month|a month|\/\s*(mo|month|mes|mese|mois|monat)\b|monthly|\bx\s*\d|\d\s*x\b|mensual|al mese?\b|per mese|par mois|pro monat|raten|instal/i;
const SKIP_TAGS = new Set([
  "del",
  "s",
  "strike",
  "nav",
  "footer",
  "script",
  "style",
  "noscript",
  "option",
]);
// Page chrome, unless it sits in <main> or holds the title: then it is the product's own block.
const CHROME = new Set(["header", "aside"]);

// [class*=price], [class*=Price], [id*=price], [id*=Price], [class*=deal], [data-price-amount],
// [itemprop=price]
export function isPriceNamed(el: ElementNode): boolean {
  const cls = el.attribs["class"];
  const id = el.attribs["id"];
  return (
    (cls !== undefined &&
      (cls.includes("price") || cls.includes("Price") || cls.includes("deal"))) ||
    (id !== undefined && (id.includes("price") || id.includes("Price"))) ||
    el.attribs["data-price-amount"] !== undefined ||
    el.attribs["itemprop"] === "price"
  );
}

export interface PagePrice {
  value: PriceValue;
  method: string;
}

export function marker(el: ElementNode): string {
  return `${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`;
}

export function ancestors(el: ElementNode): ElementNode[] {
  const out: ElementNode[] = [];
  let current = el.parent;
  while (isTag(current)) {
    out.push(current);
    current = current.parent;
  }
  return out;
}

/**
 * The price the page shows for its product: among elements named like a price, the one with a
 * currency closest after the title, leaving out struck-through, "was", per-unit and
 * shipping prices and prices inside related-product blocks.
 */
export function findPagePrice(
  $: CheerioAPI,
  title: ElementNode | null,
  currencyHint: string | null,
  pageUrl?: string,
): PagePrice | null {
  // The heuristics, the markup-offer check and the sale check may each ask: search once.
  const last = searched.get($);
  if (last && last.title === title && last.hint === currencyHint && last.pageUrl === pageUrl)
    return last.result;
  const result = searchPagePrice($, title, currencyHint, pageUrl);
  searched.set($, { title, hint: currencyHint, pageUrl, result });
  return result;
}

const searched = new WeakMap<
  CheerioAPI,
  {
    title: ElementNode | null;
    hint: string | null;
    pageUrl: string | undefined;
    result: PagePrice | null;
  }
>();

function searchPagePrice(
  $: CheerioAPI,
  title: ElementNode | null,
  currencyHint: string | null,
  pageUrl?: string,
): PagePrice | null {
  const ownId = ownIdPattern(pageUrl);
  const order = documentOrder(tagged($, "body"));
  const titleAt = title ? (order.get(title) ?? 0) : 0;
  let best: { price: PriceValue; score: number; how: string } | null = null;
  const hint = currencyHint ? { currency: currencyHint } : {};
  const parse = pricesOnThisPage();
  const holdsTitle = new Set(title ? ancestors(title) : []);
  for (const el of matching($, ["class", "id", "data-price-amount", "itemprop"], isPriceNamed)) {
    const chain = ancestors(el);
    if (outOfProduct(el, chain, chain.length, holdsTitle)) continue;
    if (
      [el, ...chain.slice(0, 3)].some(
        (a) =>
          notCurrent(a) || isStruck(a) || Object.keys(a.attribs).some((k) => k.includes("strike")),
      )
    )
      continue;
    if (
      chain.some((a) => ELSEWHERE.test(marker(a))) ||
      [el, ...chain].some(tileMarked) ||
      [el, ...chain].some((a) => linksAway(a, ownId))
    )
      continue;
    let price: PriceValue | null = null;
    let signed = false;
    let mixed = false;
    let how = "element with a price class";
    const machine =
      el.attribs["data-price-amount"] ??
      (el.attribs["itemprop"] === "price" ? el.attribs["content"] : undefined);
    if (machine) {
      price = readAmount(machine, null);
      how = "data-price-amount";
    }
    if (!price) {
      const text = cleanText(priceText(el, 60));
      if (!text || !/\d/.test(text) || INSTALMENT.test(text)) continue;
      const parsed = parse(text, hint);
      if (!parsed || Number(parsed.amount) === 0) continue;
      price = parsed;
      signed = hasSign(text, parse);
      // "Was £55.00 Now £48.99" in one container: which is which is for its children to say.
      const amounts = new Set(text.match(/\d+(?:[.,]\d+)*/g)?.map((n) => n.replace(/[.,]/g, "")));
      mixed = amounts.size > 1 || WAS_WORDS.test(text);
      // Of two prices side by side, the one marked or said to be paid now; three are unclear.
      const now = mixed && amounts.size <= 2 ? cleanText(nowText(el, text, 60)) : null;
      const nowPrice = now ? parse(now, hint) : null;
      if (now && nowPrice && Number(nowPrice.amount) > 0 && hasSign(now, parse)) {
        price = nowPrice;
        signed = true;
        mixed = false;
      }
    }
    const at = order.get(el) ?? 0;
    const distance = at >= titleAt ? (at - titleAt) / 400 : 1 + (titleAt - at) / 200;
    const score =
      (signed ? 2 : 0) -
      (mixed ? 1.5 : 0) +
      (currentMarked(el) ? 1 : 0) +
      (machine ? 1 : 0) -
      Math.min(distance, 4);
    if (!best || score > best.score) best = { price, score, how };
  }
  const chosen = best as { price: PriceValue; how: string } | null;
  if (chosen) return { value: chosen.price, method: chosen.how };
  return title ? priceTextAfter($, title, order, hint, parse, holdsTitle, ownId) : null;
}

/**
 * Whether the element or one of its first `depth` ancestors is struck through, a script, a
 * menu, the footer, or a header or aside that is page chrome (not in <main>, not holding the
 * title).
 */
function outOfProduct(
  el: ElementNode,
  chain: ElementNode[],
  depth: number,
  holdsTitle: Set<ElementNode>,
): boolean {
  const near = [el, ...chain.slice(0, depth)];
  if (near.some((a) => SKIP_TAGS.has(a.tagName.toLowerCase()))) return true;
  const chrome = near.filter((a) => CHROME.has(a.tagName.toLowerCase()) && !holdsTitle.has(a));
  return chrome.length > 0 && !chain.some(isMain);
}

function isMain(el: ElementNode): boolean {
  return el.tagName.toLowerCase() === "main" || el.attribs["role"] === "main";
}

type ParsePrice = (text: string, hint?: { currency?: string }) => PriceValue | null;

/** parsePrice, remembering answers for one page: nested price elements repeat the same text. */
function pricesOnThisPage(): ParsePrice {
  const known = new Map<string, PriceValue | null>();
  return (text, hint = {}) => {
    const key = `${hint.currency ?? ""}\u0000${text}`;
    let parsed = known.get(key);
    if (parsed === undefined) {
      parsed = parsePrice(text, hint);
      known.set(key, parsed);
    }
    return parsed;
  };
}

/** No element named like a price: the first short text with a currency sign after the title. */
function priceTextAfter(
  $: CheerioAPI,
  title: ElementNode,
  order: Map<ElementNode, number>,
  hint: { currency?: string },
  parse: ParsePrice,
  holdsTitle: Set<ElementNode>,
  ownId: RegExp | null,
): PagePrice | null {
  const start = order.get(title) ?? 0;
  const after: ElementNode[] = [];
  order.forEach((i, el) => {
    if (i > start && i <= start + 150) after.push(el);
  });
  for (const el of after) {
    const chain = ancestors(el);
    if (outOfProduct(el, chain, 4, holdsTitle)) continue;
    if (
      chain.some((a) => ELSEWHERE.test(marker(a))) ||
      [el, ...chain].some(tileMarked) ||
      [el, ...chain].some((a) => linksAway(a, ownId))
    )
      continue;
    if (el.children.some((c) => isTag(c) && !INLINE.has(c.tagName))) continue;
    if (
      $(el).find("del, s, strike").length > 0 ||
      $(el)
        .find("a")
        .toArray()
        .some((a) => pricedLinkAway(a, ownId))
    )
      continue;
    const text = cleanText(priceText(el, 40));
    if (!text || INSTALMENT.test(text)) continue;
    const parsed = parse(text, hint);
    if (parsed && Number(parsed.amount) > 0 && hasSign(text, parse)) {
      return { value: parsed, method: "currency text after the title" };
    }
  }
  return null;
}

/** The page URL's product id as a whole word of a link ("/offers/B00X1234YZ?all"), or null. */
function ownIdPattern(pageUrl: string | undefined): RegExp | null {
  const id = productIdFromUrl(pageUrl);
  if (!id) return null;
  return new RegExp(`(?:^|[^A-Za-z0-9])${id.replace(/[^A-Za-z0-9]/g, "\\$&")}(?:[^A-Za-z0-9]|$)`);
}

/**
 * A link to another page: a price inside one is the price of the product it leads to (a tile).
 * A link carrying the page's own product id leads to this product's offers, not elsewhere.
 */
function linksAway(el: ElementNode, ownId: RegExp | null): boolean {
  if (el.tagName !== "a") return false;
  const href = el.attribs["href"]?.trim() ?? "";
  return (
    href !== "" &&
    !href.startsWith("#") &&
    !/^javascript:/i.test(href) &&
    !(ownId !== null && ownId.test(href))
  );
}

/**
 * A link to another page with a number in its text: a tile's price, not a "pay now" link beside
 * this one.
 */
function pricedLinkAway(el: ElementNode, ownId: RegExp | null): boolean {
  return linksAway(el, ownId) && /\d/.test(boundedText(el, 40) ?? "");
}

/** Whether the text itself names a currency, hint aside ("12,99 €" does, "12,99" does not). */
function hasSign(text: string, parse: ParsePrice): boolean {
  return parse(text)?.currency != null || /\b(kr|Rs)\b/.test(text);
}
