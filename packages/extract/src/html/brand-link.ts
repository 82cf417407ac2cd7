import { boundedText, type CheerioAPI, type ElementNode } from "./dom.js";
import { ancestors } from "./page-price.js";
import { pageIndex } from "./page-index.js";
import { cleanText, squash, wordSet } from "./text.js";

/** How far before or after the title's element the brand's link may stand. */
const NEAR = 15;
const BRAND_PATH = /\/(brands?|marken?|marques?|marcas?|marche|merken|designers?|vendors?)\//i;
const NAVIGATION = /breadcrumb|crumbs|menu|nav/i;

/**
 * The brand printed as a link to its page right above or beside the product's name
 * (<a href="/versace-jeans-couture/">Versace Jeans Couture</a> over the heading): a link near
 * the title whose target is a brand page, or whose path ends in the link's own words. Links in
 * navigation and breadcrumbs are left out, and so are links whose words are all in the title
 * (a category such as "Jeans" above "Slim fit jeans").
 */
export function brandLinkNearTitle(
  $: CheerioAPI,
  title: ElementNode | null,
  titleText: string | null,
): string | null {
  if (!title) return null;
  const elements = pageIndex($).elements;
  const at = elements.indexOf(title);
  if (at < 0) return null;
  const titleWords = wordSet(titleText ?? "");
  let best: { text: string; distance: number } | null = null;
  for (let i = Math.max(0, at - NEAR); i <= Math.min(elements.length - 1, at + NEAR); i++) {
    const el = elements[i] as ElementNode;
    if (el.name !== "a" || i === at) continue;
    const text = cleanText(boundedText(el, 40));
    if (!text || text.length < 2 || !/\p{L}/u.test(text)) continue;
    const own = wordSet(text);
    if ([...own].every((w) => titleWords.has(w))) continue;
    if (!leadsToBrand(el.attribs["href"] ?? "", text)) continue;
    if (
      [el, ...ancestors(el)].some(
        (a) =>
          a.name === "nav" ||
          a.name === "header" ||
          a.name === "footer" ||
          NAVIGATION.test(`${a.attribs["class"] ?? ""} ${a.attribs["id"] ?? ""}`),
      )
    )
      continue;
    const distance = Math.abs(i - at);
    if (!best || distance < best.distance) best = { text, distance };
  }
  return best?.text ?? null;
}

function leadsToBrand(href: string, text: string): boolean {
  let path: string;
  try {
    path = new URL(href, "https://page.invalid/").pathname;
  } catch {
    return false;
  }
  if (BRAND_PATH.test(path)) return true;
  const last =
    path
      .split("/")
      .filter((s) => s !== "")
      .pop() ?? "";
  return (
    last !== "" &&
    squash(decodeURIComponentSafe(last).replace(/\.(html?|php|aspx?)$/i, "")) === squash(text)
  );
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
