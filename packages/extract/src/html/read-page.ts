import { parseHtml } from "./parse-html.js";
import type { ProductCandidate } from "../product-candidate.js";
import { pageBase, productOf } from "./extract-product.js";
import { ownProductOutside, readListing, type Listing } from "./listing.js";
import { pageCurrency } from "./page-currency.js";
import { detectRobotCheck } from "./robot-check.js";

export type PageReading =
  | { kind: "blocked"; by: string }
  | { kind: "product"; product: ProductCandidate }
  | { kind: "listing"; listing: Listing }
  | { kind: "unknown" };

/** Sources that describe a product themselves (an og:title alone describes any page). */
const MARKUP_SOURCES = new Set([
  "json-ld",
  "microdata",
  "rdfa",
  "opengraph",
  "meta",
  "shopify",
  "woocommerce",
]);
const PRODUCT_FACTS = ["price", "sku", "gtin", "mpn", "availability", "variants", "brand"] as const;

/** The page's markup states product facts; else the product was inferred from its text. */
const statedByMarkup = (product: ProductCandidate | null) =>
  product !== null &&
  PRODUCT_FACTS.some((field) => MARKUP_SOURCES.has(product.provenance[field]?.source ?? ""));

/**
 * What a page is, for a client that has it as the browser rendered it (the extension): a bot
 * check in front of the shop, one product, a list of products (a category or search page), or
 * none of these. Several products in markup, each with a page of its own, are a list; a product
 * the markup states wins over the cards of related products around it; a product inferred only
 * from the text (a heading and a price) gives way to a list in the markup, and to a grid of
 * priced cards unless the page shows a price or a cart button of its own outside them, since a
 * category page has a heading and prices too.
 */
export function readPage(html: string, pageUrl: string, listingLimit = 200): PageReading {
  const $ = parseHtml(html);
  const check = detectRobotCheck($, html);
  if (check) return { kind: "blocked", by: check.by };
  const product = productOf($, pageUrl);
  const currency = pageCurrency($, pageUrl);
  const found = readListing($, pageUrl, pageBase($, pageUrl), currency, listingLimit);
  if (!found) return product ? { kind: "product", product } : { kind: "unknown" };
  const { cards, ...listing } = found;
  if (!product || listing.from === "products") return { kind: "listing", listing };
  if (statedByMarkup(product)) return { kind: "product", product };
  if (listing.from === "list") return { kind: "listing", listing };
  // A product read from the text, beside a grid of priced cards: a product page shows its own price
  // or cart button outside them.
  return ownProductOutside($, cards, product.price?.currency ?? currency)
    ? { kind: "product", product }
    : { kind: "listing", listing };
}
