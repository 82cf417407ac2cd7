import { clipDescriptionHtml, storedDescription } from "@catalog/db/description";
import type { ProductCandidate } from "@catalog/extract";
import { MAX_QUANTITY, type Money, type ProductVariant } from "@catalog/values";
import {
  AMOUNT_PATTERN,
  CURRENCY_PATTERN,
  GTIN_PATTERN,
  PRODUCT_LIMITS as LIMIT,
} from "../schemas/product.js";

// A page is third-party text: whatever its markup says is read, at any length. What the catalog
// stores, and the routes answer, has the product schema's bounds (schemas/product.ts). A page
// read is fitted to them here, before the extension's own fields (which the body schema checked)
// are laid over it, so that nothing read from a page makes a write or an answer fail.

const AMOUNT = new RegExp(AMOUNT_PATTERN);
const CURRENCY = new RegExp(CURRENCY_PATTERN);
const GTIN = new RegExp(GTIN_PATTERN);

/** Text cut to `max` UTF-16 units, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end).trimEnd();
}

/**
 * A description whose stored form (cleaned HTML, escaped text: at most 6 characters for one, as
 * "&quot;") fits; a long one is cut, as its text, to fit once stored.
 */
function fitDescription(text: string | null): string | null {
  if (text === null || text.length <= LIMIT.description / 6) return text;
  const stored = storedDescription(text);
  return stored === null ? null : clipDescriptionHtml(stored, LIMIT.description);
}

/** An identifier longer than the catalog holds is not one: it is left out, not cut. */
const within = (text: string | null, max: number) =>
  text !== null && text.length <= max ? text : null;

/** A price the catalog can hold (numeric(19, 4), an ISO code), else none. */
export function storableMoney(price: Money | null): Money | null {
  return price && AMOUNT.test(price.amount) && CURRENCY.test(price.currency) ? price : null;
}

const storableQuantity = (n: number | null | undefined) =>
  typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= MAX_QUANTITY ? n : null;

// RFC 3986's characters, per part; the WHATWG URL serializer leaves some others raw ("|", "^",
// "[", "{" in a path or query, "#" in a fragment), which the schema's "uri" format refuses.
const PATH_CHARS = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]|%(?![0-9A-Fa-f]{2})/g;
const QUERY_CHARS = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/g;
const encode = (text: string, chars: RegExp) =>
  text.replace(chars, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

/**
 * An http(s) URL as the schema's "uri" format and length take it: characters RFC 3986 does not
 * allow percent-encoded, the host in ASCII; null when it is no such URL, carries credentials, or
 * is still too long.
 */
export function storableUrl(text: string | null | undefined): string | null {
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password)
    return null;
  const query = url.search === "" ? "" : `?${encode(url.search.slice(1), QUERY_CHARS)}`;
  const fragment = url.hash === "" ? "" : `#${encode(url.hash.slice(1), QUERY_CHARS)}`;
  const href = `${url.protocol}//${url.host}${encode(url.pathname, PATH_CHARS)}${query}${fragment}`;
  return href.length <= LIMIT.url ? href : null;
}

function fitVariant(v: ProductVariant): ProductVariant {
  const options: Record<string, string> = {};
  for (const [name, value] of Object.entries(v.options))
    if (name.length <= LIMIT.optionName && value.length <= LIMIT.optionValue) options[name] = value;
  return {
    ...v,
    sku: within(v.sku, LIMIT.identifier),
    title: v.title === null ? null : cut(v.title, LIMIT.title),
    price: storableMoney(v.price),
    options,
    gtin: within(v.gtin, LIMIT.variantGtin),
    availability: within(v.availability, LIMIT.availability),
    image: storableUrl(v.image),
    ...(v.quantity === undefined ? {} : { quantity: storableQuantity(v.quantity) }),
  };
}

/**
 * The page read within the product schema's bounds: an over-long title or description is cut
 * (the description as it will be stored);
 * an identifier (SKU, brand, MPN, GTIN), availability or option too long for its field, a price
 * or stock the catalog cannot hold, and an image or source URL that is no storable URL are left
 * out (with their provenance); images and variants beyond the limits are dropped, in page order.
 */
export function fitPageRead(read: ProductCandidate): ProductCandidate {
  const fitted: ProductCandidate = {
    ...read,
    title: read.title === null ? null : cut(read.title, LIMIT.title),
    sku: within(read.sku, LIMIT.identifier),
    brand: within(read.brand, LIMIT.identifier),
    mpn: within(read.mpn, LIMIT.identifier),
    gtin: read.gtin !== null && GTIN.test(read.gtin) ? read.gtin : null,
    description: fitDescription(read.description),
    price: storableMoney(read.price),
    availability: within(read.availability, LIMIT.availability),
    quantity: storableQuantity(read.quantity),
    images: [...new Set(read.images.map(storableUrl).filter((u): u is string => u !== null))].slice(
      0,
      LIMIT.images,
    ),
    variants: read.variants.slice(0, LIMIT.variants).map(fitVariant),
    attributes: Object.fromEntries(
      Object.entries(read.attributes).filter(([name]) => name.length <= LIMIT.attributeName),
    ),
    sourceUrl: read.sourceUrl === null ? null : storableUrl(read.sourceUrl),
    provenance: { ...read.provenance },
  };
  for (const field of Object.keys(fitted.provenance) as (keyof ProductCandidate["provenance"])[]) {
    const value = fitted[field];
    if (value === null || (Array.isArray(value) && value.length === 0))
      delete fitted.provenance[field];
  }
  return fitted;
}
