import type { CheerioAPI } from "./dom.js";
import { hasAttr, tagged } from "./page-index.js";
import { squash } from "./text.js";

// "brand":"TP Link", "brandName":"Tikkers", "brand":{"id":"35mn","name":"Tikkers"}: how app state
// and analytics scripts carry a product's brand.
const BRAND_KEY =
  /"[bB]rand(?:_?[nN]ame)?"\s*:\s*(?:\{[^{}]{0,200}?"[nN]ame"\s*:\s*)?"([^"\\]{1,40})"/g;

/**
 * The brand a title starts with, when the page's scripts name the same brand: the scripts'
 * state says which words are the brand ("TP Link"), the title how the shop writes it
 * ("TP-Link Tapo C200 ..."). Either alone is no evidence: a title's first word is often not a
 * brand, and a script's brand may be a related product's.
 */
export function titleBrandFromScripts($: CheerioAPI, title: string | null): string | null {
  if (!title) return null;
  const words = title.trim().split(/\s+/).slice(0, 4);
  const prefixes = new Map<string, string>();
  for (let n = words.length; n >= 1; n--) {
    const prefix = words
      .slice(0, n)
      .join(" ")
      .replace(/[,:;|/-]+$/u, "");
    const key = squash(prefix);
    if (key.length >= 2 && !prefixes.has(key)) prefixes.set(key, prefix);
  }
  if (prefixes.size === 0) return null;
  let best: string | null = null;
  for (const script of tagged($, "script")) {
    if (hasAttr(script, "src") || script.attribs["type"] === "application/ld+json") continue;
    const text = $(script).text();
    if (!text.includes("rand")) continue;
    for (const match of text.matchAll(BRAND_KEY)) {
      const hit = prefixes.get(squash(match[1]!));
      // The longest prefix the scripts name: "Alexander Girard Textiles" over "Alexander".
      if (hit && (!best || hit.length > best.length)) best = hit;
    }
  }
  return best;
}
