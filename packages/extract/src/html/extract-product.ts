import { load } from "cheerio/slim";
import type { CheerioAPI } from "./dom.js";
import type { ProductCandidate } from "../product-candidate.js";
import type { Found, FoundField } from "./found.js";
import { heuristicProduct, URL_ID_METHOD } from "./heuristics.js";
import { jsonLdProduct } from "./json-ld.js";
import { mergeFound } from "./merge.js";
import { metaProduct, readMetaTags } from "./meta-tags.js";
import { microdataProduct, rdfaProduct, readMicrodata } from "./microdata.js";
import { pageCurrency } from "./page-currency.js";
import { hasAttr, tagged } from "./page-index.js";
import { shopifyProduct } from "./shopify.js";
import { currencyCode } from "./read-amount.js";
import { documentBase } from "./urls.js";
import { wooCommerceProduct } from "./woocommerce.js";

// Fields the text heuristics look for only when no markup gave them: they are the slow part.
const HEURISTIC_FIELDS: FoundField[] = ["price", "sku", "mpn", "gtin", "brand", "availability", "images"];

/**
 * The product a page shows, or null when it shows none. Sources are read in order of trust:
 * JSON-LD, microdata, RDFa, OpenGraph and product meta tags, platform data (Shopify,
 * WooCommerce), then text heuristics; each field comes from the first source that has it, and
 * `provenance` says which.
 */
export function extractProduct(html: string, pageUrl: string): ProductCandidate | null {
  return productOf(load(html), pageUrl);
}

/** The page's base URL for its relative links: `<base href>`, else the page itself. */
export function pageBase($: CheerioAPI, pageUrl: string): string {
  return documentBase(pageUrl, tagged($, "base").find((el) => hasAttr(el, "href"))?.attribs["href"]);
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
  const statedCurrency = structured.map((f) => currencyCode(f?.values.price?.currency ?? f?.currency)).find((c) => c) ?? null;
  const country = pageCurrency($, pageUrl);
  const hint = statedCurrency ?? country;
  const platform = [shopifyProduct($, pageUrl, base), wooCommerceProduct($, base, hint)];
  const known = [...structured, ...platform].filter((f): f is Found => f !== null);
  const needed = new Set(HEURISTIC_FIELDS.filter((field) => !known.some((f) => f.values[field] !== undefined)));
  const heuristic = heuristicProduct($, pageUrl, base, hint, needed);
  const found = [...known, heuristic, jsonLd.variantSku].filter((f): f is Found => f !== null);
  // Without markup saying "product", a title with a price or a labelled product code makes one
  // (an id in the URL alone does not: articles have those too).
  const titled = found.some((f) => f.values.title !== undefined);
  const coded = heuristic.values.sku !== undefined && heuristic.methods.sku !== URL_ID_METHOD;
  const isProduct = found.some((f) => f.isProduct) || (titled && (heuristic.values.price !== undefined || coded));
  if (!isProduct) return null;
  return mergeFound(found, pageUrl.trim() === "" ? null : pageUrl, country);
}
