import { boundedText, isTag, type CheerioAPI, type ElementNode } from "./dom.js";
import { newFound, setField, type Found, type FoundField } from "./found.js";
import { findLabelledValues, type LabelField } from "./label-values.js";
import { findPagePrice } from "./page-price.js";
import { attrContains, firstMatching, hasAttr, matching, tagged } from "./page-index.js";
import { productIdFromUrl } from "./url-id.js";
import { cleanGtin } from "./schema-product.js";
import { cleanCode, cleanText, wordSet } from "./text.js";
import { mainImage } from "./main-image.js";
import { stripSiteName } from "./meta-tags.js";
import { brandLinkNearTitle } from "./brand-link.js";
import { titleBrandFromScripts } from "./script-brand.js";
import { showsText } from "./shown-over-hidden.js";
import { headingTitleNames, isSiteHeading } from "./title-heading.js";
import { titleText } from "./title-text.js";
import { resolveUrl } from "./urls.js";
import { visibleAvailability } from "./visible-stock.js";

const LABELLED_FIELDS: FoundField[] = ["sku", "mpn", "gtin", "brand", "availability"];
export const URL_ID_METHOD = "id in the page URL";
export const FORM_SKU_METHOD = "input[name=sku]";
const NAMED_TITLE =
  "[id*=productTitle], [id*=product-title], [class*=product-title], [class*=product-name], [class*=productName], [class*=productTitle]";
const TITLE_HINT = /product[-_]?(title|name)|title|name/i;
/**
 * Fallback for pages without markup: the h1 as title, the price block nearest to it, spec-table
 * labels for SKU, brand and model number, a stock line, and the largest product-looking image.
 */
export function heuristicProduct(
  $: CheerioAPI,
  pageUrl: string,
  base: string,
  currencyHint: string | null,
  needed: ReadonlySet<FoundField>,
  titles: { element: ElementNode | null; markup: string | null },
  /** Read the labelled values even where no field needs them (to check markup's brand). */
  readLabels = false,
): Found {
  const found = newFound("heuristic");
  const h1 = titles.element;
  setField(found, "title", h1 ? titleText(h1) : null, "h1");
  // No heading names the product: the page's <title>, without the shop's name.
  if (!h1) setField(found, "title", stripSiteName(documentTitle($), null, base), "document title");
  if (needed.has("price")) {
    const price = findPagePrice($, h1, currencyHint, pageUrl);
    if (price) setField(found, "price", price.value, price.method);
  }
  const labelled =
    readLabels || LABELLED_FIELDS.some((field) => needed.has(field))
      ? findLabelledValues($)
      : new Map<LabelField, string>();
  if (needed.has("sku")) {
    const label = cleanCode(labelled.get("sku"));
    // A labelled code comes first: the element named like a reference is read only without one.
    const reference = label ? null : referenceElement($);
    const form = cleanCode(formSku($));
    // The cart form's hidden SKU, unless the page shows the shopper another code and never it.
    const shown = label ?? reference;
    if (!(form && shown && shown !== form && !showsText($, form)))
      setField(found, "sku", form, FORM_SKU_METHOD);
    setField(found, "sku", label, "label SKU");
    setField(found, "sku", reference, "element named like a product reference");
    // link[rel=canonical] (rel compares case-insensitively), then meta[property='og:url']
    const canonical =
      tagged($, "link").find((el) => el.attribs["rel"]?.toLowerCase() === "canonical")?.attribs[
        "href"
      ] ?? tagged($, "meta").find((el) => el.attribs["property"] === "og:url")?.attribs["content"];
    setField(found, "sku", productIdFromUrl(resolveUrl(canonical, base), pageUrl), URL_ID_METHOD);
  }
  setField(found, "mpn", cleanCode(labelled.get("mpn")), "label model number");
  setField(found, "gtin", cleanGtin(labelled.get("gtin") ?? null), "label EAN/GTIN");
  if (needed.has("brand")) {
    setField(found, "brand", bylineBrand($) ?? cleanText(labelled.get("brand")), "label brand");
    const title = titles.markup ?? found.values.title ?? null;
    if (found.values.brand === undefined)
      setField(
        found,
        "brand",
        titleBrandFromScripts($, title),
        "title's start named as brand by the page's scripts",
      );
    if (found.values.brand === undefined)
      setField(
        found,
        "brand",
        brandLinkNearTitle($, h1, title),
        "link to the brand's page beside the title",
      );
  } else setField(found, "brand", cleanText(labelled.get("brand")), "label brand");
  if (needed.has("availability")) {
    const stock = visibleAvailability($, h1, labelled.get("availability"));
    if (stock) setField(found, "availability", stock.value, stock.method);
  }
  if (needed.has("images"))
    setField(
      found,
      "images",
      [mainImage($, h1, base)].filter((u): u is string => u !== null),
      "largest product image",
    );
  return found;
}

/**
 * The element holding the product's name: a heading named for it, else the first h1, else an
 * element named like a product title. A heading that shares no word with the page's <title> is
 * not the product's ("Sale", "COVID-19 policies" above the ad): a product page's <title> names
 * its product.
 */
export function titleElement($: CheerioAPI): ElementNode | null {
  const pageWords = wordSet(documentTitle($) ?? "");
  const h1s = tagged($, "h1");
  const own = h1s.filter((el) => !isSiteHeading(el));
  const headings = own.filter((el) => {
    const text = cleanText($(el).text()) ?? "";
    return (
      text.length >= 2 &&
      text.length <= 300 &&
      (pageWords.size === 0 || [...wordSet(text)].some((w) => pageWords.has(w)))
    );
  });
  const hinted = headings.find(
    (el) =>
      TITLE_HINT.test(`${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`) ||
      $(el).find("[id*=itle], [class*=itle], [class*=name]").length > 0,
  );
  const heading = hinted ?? headings[0];
  // A heading holding the name and more ("Title Kindle Edition"): the part named as the title.
  if (heading) return $(heading).find(NAMED_TITLE).get(0) ?? heading;
  // [class*=product-title], [class*=product-name], [class*=productName], [class*=productTitle],
  // [id*=productTitle]
  const named = firstMatching(
    $,
    ["class", "id"],
    (el) =>
      attrContains(el, "class", "product-title") ||
      attrContains(el, "class", "product-name") ||
      attrContains(el, "class", "productName") ||
      attrContains(el, "class", "productTitle") ||
      attrContains(el, "id", "productTitle"),
  );
  // The h1 is the shop's name (in the home link or the logo): the heading the <title> names.
  return named ?? (own.length < h1s.length ? headingTitleNames($, pageWords) : null);
}

/** The page's own <title> (not an SVG's), cleaned; null when it has none. */
export function documentTitle($: CheerioAPI): string | null {
  const title = tagged($, "title").find((el) => isTag(el.parent) && el.parent.name === "head");
  return title ? cleanText($(title).text()) : null;
}

const FORM_SKU_NAMES = new Set(["sku", "product_sku", "ASIN"]);

/** A hidden field carrying the product's id for the cart form. */
function formSku($: CheerioAPI): string | null {
  // input[name=sku], input[name=product_sku], input[name=ASIN], input#ASIN
  const input = tagged($, "input").find(
    (el) => FORM_SKU_NAMES.has(el.attribs["name"] ?? "") || el.attribs["id"] === "ASIN",
  );
  // cheerio's attr: a radio or checkbox without a value reads "on".
  const value = input ? $(input).attr("value") : undefined;
  return value && value.trim() !== "" ? value.trim() : null;
}

const REFERENCE_HINT =
  /product[-_]?(reference|ref|code|number|sku|id)\b|\b(sku|article[-_]?number|item[-_]?number|catnumber|reference)\b/i;

/** A product code shown on its own, in an element named for it (class, id or data-* value). */
function referenceElement($: CheerioAPI): string | null {
  // [class*=ref], [class*=sku], [class*=code], [class*=umber], [id*=sku], [data-qa-qualifier],
  // [data-test]
  const named = matching(
    $,
    ["class", "id", "data-qa-qualifier", "data-test"],
    (el) =>
      attrContains(el, "class", "ref") ||
      attrContains(el, "class", "sku") ||
      attrContains(el, "class", "code") ||
      attrContains(el, "class", "umber") ||
      attrContains(el, "id", "sku") ||
      hasAttr(el, "data-qa-qualifier") ||
      hasAttr(el, "data-test"),
  );
  for (const el of named) {
    const names = Object.entries(el.attribs)
      .filter(([k]) => k === "class" || k === "id" || k.startsWith("data-"))
      .map(([, v]) => v)
      .join(" ");
    if (!REFERENCE_HINT.test(names)) continue;
    const text = cleanCode(boundedText(el, 40));
    if (text && /\d/.test(text) && /^[\p{L}\d][\p{L}\d ._/-]{2,30}$/u.test(text)) return text;
  }
  return null;
}

/** "Visit the Bosch Store", "Brand: Bosch" and their translations, under or beside the title. */
function bylineBrand($: CheerioAPI): string | null {
  // #bylineInfo, #brand, [class*=product-brand], [class*=brand-name], [class*=brandName],
  // [itemprop=brand], and Shopify's vendor line: [class*=product__vendor], [class*=product-vendor],
  // [class*=product-single__vendor]
  const first = firstMatching(
    $,
    ["id", "class", "itemprop"],
    (el) =>
      el.attribs["id"] === "bylineInfo" ||
      el.attribs["id"] === "brand" ||
      attrContains(el, "class", "product-brand") ||
      attrContains(el, "class", "brand-name") ||
      attrContains(el, "class", "brandName") ||
      attrContains(el, "class", "product__vendor") ||
      attrContains(el, "class", "product-vendor") ||
      attrContains(el, "class", "product-single__vendor") ||
      el.attribs["itemprop"] === "brand",
  );
  const text = first ? cleanText(boundedText(first, 80)) : null;
  if (!text) return null;
  const patterns = [
    /^visit the (.+?) store$/i,
    /^besuchen sie den (.+?)[- ]store$/i,
    /^visita lo store di (.+)$/i,
    /^visita la tienda de (.+)$/i,
    /^visiter la boutique (.+)$/i,
    /^bezoek de (.+?)[- ]winkel$/i,
    /^(?:brand|marke|marca|marque|merk)\s*:\s*(.+)$/i,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1].trim();
  }
  return text.length <= 40 && !/\s{2,}|:/.test(text) ? text : null;
}
