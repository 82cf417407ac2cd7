import { isTag, isText, type CheerioAPI, type ElementNode } from "./dom.js";
import { newFound, setField, type Found } from "./found.js";
import { pageIndex } from "./page-index.js";

/** Heuristic SKU methods that read a code the shopper is shown. */
export const SHOWN_SKU_METHODS = new Set(["label SKU", "element named like a product reference"]);

const UNSHOWN = new Set(["script", "style", "noscript", "template", "head"]);

/**
 * When the page shows the shopper a product code other than markup's SKU, and markup's SKU is
 * only the id in the page's URL or is never printed on the page (a variant or database id kept in
 * the markup), the code the page shows is the product's SKU.
 */
export function shownOverMarkup(
  $: CheerioAPI,
  heuristic: Found,
  markupSku: string,
  urlId: boolean,
): Found | null {
  const sku = heuristic.values.sku;
  const method = heuristic.methods.sku ?? "";
  if (sku === undefined || sku === markupSku || !SHOWN_SKU_METHODS.has(method)) return null;
  const why = urlId ? "is the page URL's id" : showsText($, markupSku) ? null : "is not shown";
  if (!why) return null;
  const shown = newFound("heuristic");
  setField(shown, "sku", sku, `${method} (markup's SKU ${markupSku} ${why})`);
  return shown;
}

/** Whether a text the shopper can see holds `value` (case aside), outside scripts and hidden
 * elements. Asked only when a shown code disagrees with markup: one loop over the page's
 * elements. */
export function showsText($: CheerioAPI, value: string, asWord = false): boolean {
  const needle = value.trim().toLowerCase();
  if (needle === "") return false;
  for (const el of pageIndex($).elements) {
    if (UNSHOWN.has(el.name)) continue;
    for (const child of el.children) {
      if (!isText(child)) continue;
      const text = child.data.toLowerCase();
      const at = text.indexOf(needle);
      if (at < 0 || hidden(el)) continue;
      if (!asWord || wordAt(text, needle)) return true;
    }
  }
  return false;
}

/** The needle occurs in the text with no letter or digit either side ("Ali" is not in "Alibaba"). */
function wordAt(text: string, needle: string): boolean {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = text.slice(Math.max(0, at - 1), at);
    const after = text.slice(at + needle.length, at + needle.length + 1);
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

/**
 * A brand the page labels for the shopper ("Brand Name: YONGLI" in its spec table) beats markup's
 * brand when the page never prints markup's as a word.
 */
export function shownBrandOverMarkup(
  $: CheerioAPI,
  heuristic: Found,
  markupBrand: string,
): Found | null {
  const brand = heuristic.values.brand;
  if (brand === undefined || heuristic.methods.brand !== "label brand") return null;
  if (squashed(brand) === squashed(markupBrand) || showsText($, markupBrand, true)) return null;
  const shown = newFound("heuristic");
  setField(shown, "brand", brand, `label brand (markup's brand ${markupBrand} is not shown)`);
  return shown;
}

const squashed = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The element or one around it is left out of the rendered page. */
function hidden(el: ElementNode): boolean {
  for (let at: ElementNode | null = el; at; at = isTag(at.parent) ? at.parent : null) {
    if (UNSHOWN.has(at.name) || at.attribs["hidden"] !== undefined) return true;
    if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(at.attribs["style"] ?? "")) return true;
  }
  return false;
}
