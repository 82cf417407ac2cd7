import { isTag, type CheerioAPI, type ElementNode } from "./dom.js";
import { tagged } from "./page-index.js";
import { cleanText, wordSet } from "./text.js";

const LOGO = /logo|site[-_]?(title|name|branding)/i;
/** How far up a logo's container is looked for. */
const LOGO_DEPTH = 4;
const FALLBACK_HEADINGS = ["h2", "h3"];

/**
 * The shop's own name set as a heading: an h1 inside a link (the home link) or inside, or named
 * as, the logo. Not the product's title.
 */
export function isSiteHeading(el: ElementNode): boolean {
  let depth = 0;
  for (let at: ElementNode["parent"] = el; isTag(at); at = at.parent) {
    if (at.name === "a") return true;
    if (
      depth++ <= LOGO_DEPTH &&
      LOGO.test(`${at.attribs["class"] ?? ""} ${at.attribs["id"] ?? ""}`)
    )
      return true;
  }
  return false;
}

/**
 * The h2 or h3 the page's <title> names (the one sharing most words with it, at least half of
 * its own), for a page whose h1 is the shop's name.
 */
export function headingTitleNames($: CheerioAPI, pageWords: Set<string>): ElementNode | null {
  if (pageWords.size === 0) return null;
  let best: { el: ElementNode; shared: number } | null = null;
  for (const name of FALLBACK_HEADINGS) {
    for (const el of tagged($, name)) {
      if (isSiteHeading(el)) continue;
      const words = wordSet(cleanText($(el).text()) ?? "");
      let shared = 0;
      for (const word of words) if (pageWords.has(word)) shared++;
      if (shared > 0 && shared * 2 >= words.size && (!best || shared > best.shared))
        best = { el, shared };
    }
    if (best) return best.el;
  }
  return null;
}
