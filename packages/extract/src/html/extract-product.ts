import { parseHtml } from "./parse-html.js";
import type { CheerioAPI, ElementNode } from "./dom.js";
import type { ProductCandidate } from "../product-candidate.js";
import { newFound, setField, type Found, type FoundField } from "./found.js";
import { offeredNearTitle } from "./buy-controls.js";
import { heuristicProduct, titleElement, URL_ID_METHOD } from "./heuristics.js";
import { saleOverMarkup } from "./sale-price.js";
import { jsonLdProduct } from "./json-ld.js";
import { shownMarkupPrice } from "./markup-offers.js";
import { dropNonProductPictures } from "./markup-images.js";
import { mergeFound } from "./merge.js";
import { metaProduct, readMetaTags } from "./meta-tags.js";
import { microdataProduct, rdfaProduct, readMicrodata } from "./microdata.js";
import { pageCurrency } from "./page-currency.js";
import { hasAttr, tagged } from "./page-index.js";
import { shopifyProduct } from "./shopify.js";
import { showsText, shownBrandOverMarkup, shownOverMarkup } from "./shown-over-hidden.js";
import { currencyCode } from "./read-amount.js";
import { documentBase } from "./urls.js";
import { wooCommerceProduct } from "./woocommerce.js";

// Fields the text heuristics look for only when no markup gave them: they are the slow part.
const HEURISTIC_FIELDS: FoundField[] = [
  "price",
  "sku",
  "mpn",
  "gtin",
  "brand",
  "availability",
  "images",
];

/**
 * The product a page shows, or null when it shows none. Sources are read in order of trust:
 * JSON-LD, microdata, RDFa, OpenGraph and product meta tags, platform data (Shopify,
 * WooCommerce), then text heuristics; each field comes from the first source that has it, and
 * `provenance` says which.
 */
export function extractProduct(html: string, pageUrl: string): ProductCandidate | null {
  return productOf(parseHtml(html), pageUrl);
}

/** The page's base URL for its relative links: `<base href>`, else the page itself. */
export function pageBase($: CheerioAPI, pageUrl: string): string {
  return documentBase(
    pageUrl,
    tagged($, "base").find((el) => hasAttr(el, "href"))?.attribs["href"],
  );
}

/** extractProduct on a page already parsed. */
export function productOf($: CheerioAPI, pageUrl: string): ProductCandidate | null {
  const base = pageBase($, pageUrl);
  const items = readMicrodata($);
  const jsonLd = jsonLdProduct($, pageUrl, base);
  const structured = [
    jsonLd.main,
    microdataProduct(items, pageUrl, base),
    rdfaProduct($, pageUrl, base),
    metaProduct(readMetaTags($), items.orphans, base),
  ];
  const statedCurrency =
    structured.map((f) => currencyCode(f?.values.price?.currency ?? f?.currency)).find((c) => c) ??
    null;
  const country = pageCurrency($, pageUrl);
  const hint = statedCurrency ?? country;
  const platform = [shopifyProduct($, pageUrl, base), wooCommerceProduct($, base, hint)];
  const known = [...structured, ...platform].filter((f): f is Found => f !== null);
  // A logo or placeholder named as the product's image gives way to the page's own picture.
  for (const f of known) dropNonProductPictures(f);
  const needed = new Set(
    HEURISTIC_FIELDS.filter((field) => !known.some((f) => f.values[field] !== undefined)),
  );
  const markupSku = known.find((f) => f.values.sku !== undefined)?.values.sku;
  const urlIdSku = markupSku !== undefined && isPageUrlId(markupSku, pageUrl);
  // The code the page shows is read too where markup's SKU may be hidden from the shopper (the
  // URL's id, or never printed): the shown code then wins.
  if (markupSku !== undefined && (urlIdSku || !showsText($, markupSku))) needed.add("sku");
  // Likewise a labelled brand beats a markup brand the page never prints as a word.
  const markupBrand = known.find((f) => f.values.brand !== undefined)?.values.brand;
  const readLabels = markupBrand !== undefined && !showsText($, markupBrand, true);
  const markupTitle = known.find((f) => f.values.title !== undefined)?.values.title ?? null;
  // The product's title element, found once: the heuristics and the sale check both start from it.
  const titleEl = titleElement($);
  const heuristic = heuristicProduct(
    $,
    pageUrl,
    base,
    hint,
    needed,
    { element: titleEl, markup: markupTitle },
    readLabels,
  );
  const shown = markupSku === undefined ? null : shownOverMarkup($, heuristic, markupSku, urlIdSku);
  const offered = shownMarkupPrice($, known, titleEl, hint, pageUrl);
  const markupPrice =
    offered?.values.price ?? known.find((f) => f.values.price !== undefined)?.values.price;
  const sale = markupPrice ? saleOverMarkup($, markupPrice, titleEl, hint, pageUrl) : null;
  const onSale = sale ? newFound("heuristic") : null;
  if (sale && onSale)
    setField(
      onSale,
      "price",
      { amount: sale.value.amount, currency: sale.value.currency ?? markupPrice?.currency ?? null },
      sale.method,
    );
  const shownBrand =
    markupBrand === undefined ? null : shownBrandOverMarkup($, heuristic, markupBrand);
  const buyable = offeredOverMarkup($, known, titleEl);
  const found = [
    shown,
    shownBrand,
    onSale,
    offered,
    buyable,
    ...known,
    heuristic,
    jsonLd.variantSku,
  ].filter((f): f is Found => f !== null);
  // Without markup saying "product", a title with a price or a labelled product code makes one
  // (an id in the URL alone does not: articles have those too).
  const titled = found.some((f) => f.values.title !== undefined);
  const coded = heuristic.values.sku !== undefined && heuristic.methods.sku !== URL_ID_METHOD;
  const isProduct =
    found.some((f) => f.isProduct) || (titled && (heuristic.values.price !== undefined || coded));
  if (!isProduct) return null;
  return mergeFound(found, pageUrl.trim() === "" ? null : pageUrl, country);
}

/** Markup says OutOfStock, but an enabled buy control follows the title: the page offers it. */
function offeredOverMarkup($: CheerioAPI, known: Found[], title: ElementNode | null): Found | null {
  const stated = known.find((f) => f.values.availability !== undefined)?.values.availability;
  if (stated !== "OutOfStock" || !offeredNearTitle($, title)) return null;
  const offered = newFound("heuristic");
  setField(
    offered,
    "availability",
    "InStock",
    "enabled buy button after the title (markup said OutOfStock)",
  );
  return offered;
}

/**
 * The SKU is a path segment or a query value of the page's own URL (".../pd/DMCSZ4BBM/"), or a
 * long number in its slug (".../folding-chair-10134622-pdt.html").
 */
function isPageUrlId(sku: string, pageUrl: string): boolean {
  try {
    const url = new URL(pageUrl);
    const parts = [
      ...url.pathname.split("/").map((p) => p.replace(/\.(html?|php|aspx?)$/i, "")),
      ...url.searchParams.values(),
    ];
    if (parts.includes(sku)) return true;
    return /^\d{5,}$/.test(sku) && parts.some((part) => part.split(/[-_.]/).includes(sku));
  } catch {
    return false;
  }
}
