import { boundedText, type CheerioAPI, type ElementNode } from "./dom.js";
import { newFound, setField, type Found, type FoundField } from "./found.js";
import { findLabelledValues } from "./label-values.js";
import { findPagePrice } from "./page-price.js";
import { productIdFromUrl } from "./url-id.js";
import { cleanGtin } from "./schema-product.js";
import { cleanCode, cleanText } from "./text.js";
import { largestFromSrcset, resolveUrl } from "./urls.js";

export const URL_ID_METHOD = "id in the page URL";
const TITLE_HINT = /product[-_]?(title|name)|title|name/i;
const IMAGE_HINT = /(main|primary|hero|landing|zoom|large|product)[-_]?(image|img|photo|picture)|landingImage|imgBlkFront|main-image/i;
const OUT_OF_STOCK = /out of stock|sold out|currently unavailable|not available|unavailable|nicht verf[üu]gbar|nicht lieferbar|ausverkauft|non disponibile|esaurito|no disponible|agotado|[ée]puis[ée]|indisponible|rupture de stock|niet (op voorraad|leverbaar)|brak w magazynie|niedostępny|slut(såld)?|udsolgt|esgotado|indispon[ií]vel|нет в наличии/i;
const IN_STOCK = /in stock|auf lager|lieferbar|sofort|disponibile|disponible|en stock|op voorraad|på lager|dostępny|available|en existencia|dispon[ií]vel|em estoque|в наличии|k dispozici|skladem/i;

/**
 * Fallback for pages without markup: the h1 as title, the price block nearest to it, spec-table
 * labels for SKU, brand and model number, a stock line, and the largest product-looking image.
 */
export function heuristicProduct(
  $: CheerioAPI, pageUrl: string, base: string, currencyHint: string | null, needed: ReadonlySet<FoundField>,
): Found {
  const found = newFound("heuristic");
  const h1 = pickTitleElement($);
  setField(found, "title", h1 ? cleanText($(h1).text()) : null, "h1");
  if (needed.has("price")) {
    const price = findPagePrice($, h1, currencyHint);
    if (price) setField(found, "price", price.value, price.method);
  }
  const labelled = needed.has("sku") || needed.has("mpn") || needed.has("gtin") || needed.has("brand") ? findLabelledValues($) : new Map();
  if (needed.has("sku")) {
    setField(found, "sku", cleanCode(formSku($)), "input[name=sku]");
    setField(found, "sku", cleanCode(labelled.get("sku")), "label SKU");
    setField(found, "sku", referenceElement($), "element named like a product reference");
    const canonical = $("link[rel=canonical]").attr("href") ?? $("meta[property='og:url']").attr("content");
    setField(found, "sku", productIdFromUrl(resolveUrl(canonical, base), pageUrl), URL_ID_METHOD);
  }
  setField(found, "mpn", cleanCode(labelled.get("mpn")), "label model number");
  setField(found, "gtin", cleanGtin(labelled.get("gtin") ?? null), "label EAN/GTIN");
  if (needed.has("brand")) setField(found, "brand", bylineBrand($) ?? cleanText(labelled.get("brand")), "label brand");
  if (needed.has("availability")) setField(found, "availability", stockLine($), "stock text");
  if (needed.has("images")) setField(found, "images", [mainImage($, base)].filter((u): u is string => u !== null), "largest product image");
  return found;
}

function pickTitleElement($: CheerioAPI): ElementNode | null {
  const headings = $("h1").toArray().filter((el) => {
    const text = cleanText($(el).text()) ?? "";
    return text.length >= 2 && text.length <= 300;
  });
  const hinted = headings.find((el) => TITLE_HINT.test(`${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`)
    || $(el).find("[id*=itle], [class*=itle], [class*=name]").length > 0);
  if (hinted ?? headings[0]) return hinted ?? headings[0] ?? null;
  const named = $("[class*=product-title], [class*=product-name], [class*=productName], [class*=productTitle], [id*=productTitle]").first();
  return named.get(0) ?? null;
}

/** A hidden field carrying the product's id for the cart form. */
function formSku($: CheerioAPI): string | null {
  const value = $("input[name=sku], input[name=product_sku], input[name=ASIN], input#ASIN").first().attr("value");
  return value && value.trim() !== "" ? value.trim() : null;
}

const REFERENCE_HINT = /product[-_]?(reference|ref|code|number|sku|id)\b|\b(sku|article[-_]?number|item[-_]?number|catnumber|reference)\b/i;

/** A product code shown on its own, in an element named for it (class, id or data-* value). */
function referenceElement($: CheerioAPI): string | null {
  for (const el of $("[class*=ref], [class*=sku], [class*=code], [class*=umber], [id*=sku], [data-qa-qualifier], [data-test]").toArray()) {
    const names = Object.entries(el.attribs).filter(([k]) => k === "class" || k === "id" || k.startsWith("data-")).map(([, v]) => v).join(" ");
    if (!REFERENCE_HINT.test(names)) continue;
    const text = cleanCode(boundedText(el, 40));
    if (text && /\d/.test(text) && /^[\p{L}\d][\p{L}\d ._\/-]{2,30}$/u.test(text)) return text;
  }
  return null;
}

/** "Visit the Bosch Store", "Brand: Bosch" and their translations, under or beside the title. */
function bylineBrand($: CheerioAPI): string | null {
  const el = $("#bylineInfo, #brand, .product-brand, [class*=brand-name], [class*=brandName], [itemprop=brand]").first();
  const first = el.get(0);
  const text = first ? cleanText(boundedText(first, 80)) : null;
  if (!text) return null;
  const patterns = [
    /^visit the (.+?) store$/i, /^besuchen sie den (.+?)[- ]store$/i, /^visita lo store di (.+)$/i,
    /^visita la tienda de (.+)$/i, /^visiter la boutique (.+)$/i, /^bezoek de (.+?)[- ]winkel$/i,
    /^(?:brand|marke|marca|marque|merk)\s*:\s*(.+)$/i,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1].trim();
  }
  return text.length <= 40 && !/\s{2,}|:/.test(text) ? text : null;
}

function stockLine($: CheerioAPI): string | null {
  let answer: string | null = null;
  $("[id*=vailability], [class*=vailability], [id*=stock], [class*=stock], [class*=Stock]").each((_, el) => {
    if (answer) return;
    const marker = `${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`;
    if (/out-?of-?stock|sold-?out/i.test(marker)) answer = "OutOfStock";
    else if (/(^|\s)(in-?stock|instock)(\s|$)/i.test(marker)) answer = "InStock";
    if (answer) return;
    const text = cleanText(boundedText(el, 160)) ?? "";
    if (text.length === 0) return;
    if (OUT_OF_STOCK.test(text)) answer = "OutOfStock";
    else if (IN_STOCK.test(text)) answer = "InStock";
  });
  return answer;
}

/** The image a shop shows as the product: one named like it, else the largest declared. */
function mainImage($: CheerioAPI, base: string): string | null {
  const source = (el: ElementNode): string | null => {
    const a = el.attribs;
    return a["data-old-hires"] || a["data-zoom-image"] || a["data-large_image"] || a["data-zoom"]
      || largestFromSrcset(a["srcset"] ?? a["data-srcset"]) || a["data-src"] || a["src"] || null;
  };
  const images = $("img").toArray();
  const named = images.find((el) => IMAGE_HINT.test(`${el.attribs["id"] ?? ""} ${el.attribs["class"] ?? ""}`) && source(el));
  if (named) return resolveUrl(source(named), base);
  let best: { el: ElementNode; area: number } | null = null;
  for (const el of images) {
    const area = Number(el.attribs["width"] ?? 0) * Number(el.attribs["height"] ?? 0);
    if (area >= 200 * 200 && (!best || area > best.area)) best = { el, area };
  }
  return best ? resolveUrl(source(best.el), base) : null;
}
