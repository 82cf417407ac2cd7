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
export function showsText($: CheerioAPI, value: string): boolean {
  const needle = value.trim().toLowerCase();
  if (needle === "") return false;
  for (const el of pageIndex($).elements) {
    if (UNSHOWN.has(el.name)) continue;
    for (const child of el.children)
      if (isText(child) && child.data.toLowerCase().includes(needle) && !hidden(el)) return true;
  }
  return false;
}

/** The element or one around it is left out of the rendered page. */
function hidden(el: ElementNode): boolean {
  for (let at: ElementNode | null = el; at; at = isTag(at.parent) ? at.parent : null) {
    if (UNSHOWN.has(at.name) || at.attribs["hidden"] !== undefined) return true;
    if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(at.attribs["style"] ?? "")) return true;
  }
  return false;
}
