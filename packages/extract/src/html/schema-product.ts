import type { ProductVariant } from "@catalog/values";
import { normaliseAvailability } from "./availability.js";
import { newFound, setField, type Found, type PriceValue } from "./found.js";
import { readAmount } from "./read-amount.js";
import { all, firstText, hasType, isNode, nodes, typesOf, type SchemaNode } from "./schema-node.js";
import { cleanCode, cleanText } from "./text.js";
import { resolveUrl } from "./urls.js";

const GTIN_KEYS = ["gtin13", "gtin", "gtin12", "gtin14", "gtin8", "ean", "upc", "isbn"] as const;
const NOT_THE_PRICE = /ListPrice|Strikethrough|MSRP|SRP|Original|Was|Regular/i;
const OPTION_KEYS = ["color", "size", "material", "pattern", "model"] as const;

/** Reads a schema.org Product (or ProductGroup) node into fields, whatever syntax it came in. */
export function readSchemaProduct(node: SchemaNode, source: string, base: string): Found {
  const found = newFound(source, true);
  const type = typesOf(node).find((t) => t !== "Thing") ?? "Product";
  const at = (path: string): string => `${type}.${path}`;
  setField(found, "title", cleanText(firstText(node["name"])), at("name"));
  const offers = flattenOffers(node["offers"]);
  setField(found, "sku", cleanCode(firstText(node["sku"])), at("sku"));
  setField(found, "sku", cleanCode(firstText(offers.map((o) => o["sku"]))), at("offers.sku"));
  setField(found, "gtin", gtinOf(node), at("gtin"));
  setField(found, "gtin", firstGtin(offers), at("offers.gtin"));
  setField(found, "mpn", cleanCode(firstText(node["mpn"])), at("mpn"));
  setField(found, "sku", productIdAsSku(node), at("productID"));
  setField(found, "brand", brandOf(node["brand"]), at("brand"));
  setField(found, "description", cleanText(firstText(node["description"])), at("description"));
  setField(found, "images", imagesOf(node["image"], base), at("image"));
  const main = mainOffer(offers);
  found.prices = offers.flatMap((offer) => {
    const read = priceOfOffer(offer);
    return read.price ? [{ price: read.price, method: at(`offers.${read.method}`) }] : [];
  });
  if (main) {
    setField(found, "price", main.price, at(`offers.${main.method}`));
    setField(found, "availability", main.availability, at("offers.availability"));
  }
  setField(
    found,
    "availability",
    normaliseAvailability(firstText(node["availability"])),
    at("availability"),
  );
  const variants = variantsOf(node, offers, base);
  setField(
    found,
    "variants",
    variants,
    hasType(node, ["ProductGroup"]) ? at("hasVariant") : at("offers"),
  );
  if (!found.values.price && variants.length > 0) {
    const cheapest = cheapestOf(variants.flatMap((v) => (v.price ? [v.price] : [])));
    setField(found, "price", cheapest, at("hasVariant.offers.price (lowest)"));
  }
  found.currency = firstText(offers.map((o) => o["priceCurrency"])) ?? null;
  return found;
}

/** Offers as a flat list: an AggregateOffer counts itself and the offers it lists (as does an
 * Offer with offers nested in it, which badly nested microdata produces). */
function flattenOffers(value: unknown, depth = 0): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const offer of nodes(value)) {
    out.push(offer);
    if (depth < 3) out.push(...flattenOffers(offer["offers"], depth + 1));
  }
  return out;
}

interface OfferPrice {
  price: PriceValue | null;
  availability: string | null;
  method: string;
}

function priceOfOffer(offer: SchemaNode): OfferPrice {
  const currency = firstText(offer["priceCurrency"]);
  const availability = normaliseAvailability(firstText(offer["availability"]));
  for (const key of ["price", "lowPrice"] as const) {
    const price = readAmount(firstText(offer[key]), currency);
    if (price) return { price, availability, method: key };
  }
  const specs = nodes(offer["priceSpecification"]);
  const current = specs.filter((s) => !NOT_THE_PRICE.test(firstText(s["priceType"]) ?? ""));
  for (const spec of [...current, ...specs]) {
    const price = readAmount(
      firstText(spec["price"]),
      firstText(spec["priceCurrency"]) ?? currency,
    );
    if (price) return { price, availability, method: "priceSpecification.price" };
  }
  return { price: null, availability, method: "price" };
}

/**
 * The offer that stands for the product: an AggregateOffer's low price, else the first offer in
 * stock (per-size offers list sold-out sizes too, often at a clearance price), else the first.
 */
function mainOffer(offers: SchemaNode[]): OfferPrice | null {
  const aggregate = offers.find((o) => hasType(o, ["AggregateOffer"]));
  if (aggregate) {
    const read = priceOfOffer(aggregate);
    if (read.price) return read;
  }
  const read = offers.map(priceOfOffer);
  const priced = read.filter((r) => r.price);
  const available = priced.filter(
    (r) =>
      r.availability !== "OutOfStock" &&
      r.availability !== "SoldOut" &&
      r.availability !== "Discontinued",
  );
  return available[0] ?? priced[0] ?? read[0] ?? null;
}

function cheapestOf(prices: PriceValue[]): PriceValue | null {
  if (prices.length === 0) return null;
  return prices.reduce((a, b) => (Number(b.amount) < Number(a.amount) ? b : a));
}

export function gtinOf(node: SchemaNode): string | null {
  for (const key of GTIN_KEYS) {
    const gtin = cleanGtin(firstText(node[key]));
    if (gtin) return gtin;
  }
  const id = firstText(node["productID"]);
  if (id && /^(gtin\d*|ean|upc|isbn):/i.test(id)) return cleanGtin(id.replace(/^[a-z0-9]+:/i, ""));
  return null;
}

function firstGtin(offers: SchemaNode[]): string | null {
  for (const offer of offers) {
    const gtin = gtinOf(offer);
    if (gtin) return gtin;
  }
  return null;
}

/** GTINs are 8 to 14 digits; shops print them with spaces or dashes, or as numbers. */
/**
 * A GTIN whose check digit holds, or an ISBN-10: a number that fails its check is a typo or a
 * placeholder ("0000000000000"), and channels refuse it. A UPC printed without its leading
 * zeros (11 digits) gets them back.
 */
export function cleanGtin(value: string | null): string | null {
  if (!value) return null;
  const code = value.replace(/[\s-]/g, "").toUpperCase();
  if (/^\d{9}[\dX]$/.test(code) && isbn10Holds(code)) return code;
  if (!/^\d{8,14}$/.test(code) || /^0+$/.test(code)) return null;
  return gs1CheckHolds(code)
    ? code.length > 8 && code.length < 12
      ? code.padStart(12, "0")
      : code
    : null;
}

function gs1CheckHolds(code: string): boolean {
  const digits = [...code].map(Number);
  const check = digits.pop() as number;
  // From the right, weights 3, 1, 3, ... on the digits before the check digit.
  const sum = digits.reverse().reduce((total, d, i) => total + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

function isbn10Holds(code: string): boolean {
  const sum = [...code].reduce((total, c, i) => total + (c === "X" ? 10 : Number(c)) * (10 - i), 0);
  return sum % 11 === 0;
}

function productIdAsSku(node: SchemaNode): string | null {
  const id = cleanCode(firstText(node["productID"]));
  if (!id || /^(gtin\d*|ean|upc|isbn):/i.test(id)) return null;
  return id;
}

export function brandOf(value: unknown): string | null {
  for (const item of all(value)) {
    const text = isNode(item)
      ? cleanText(firstText(item["name"]))
      : typeof item === "string"
        ? cleanText(item)
        : null;
    if (text && isBrandName(text)) return text;
  }
  return null;
}

/**
 * A brand is a name, not a page: some shops print the object itself (brand: "{\"@type\": ...}")
 * or the page's title with the shop's name after a bar ("Pizza deal | Shop").
 */
function isBrandName(text: string): boolean {
  return !text.startsWith("{") && !/\s[|｜]\s/u.test(text) && text.length <= 60;
}

export function imagesOf(value: unknown, base: string): string[] {
  const urls: string[] = [];
  for (const item of all(value)) {
    const raw =
      typeof item === "string"
        ? item
        : isNode(item)
          ? (firstText(item["url"]) ?? firstText(item["contentUrl"]) ?? firstText(item["@id"]))
          : null;
    const url = resolveUrl(raw, base);
    if (url && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

function variantsOf(node: SchemaNode, offers: SchemaNode[], base: string): ProductVariant[] {
  const members = nodes(node["hasVariant"]);
  if (members.length > 0) {
    const varies = all(node["variesBy"]).flatMap((v) =>
      typeof v === "string" ? [v.split(/[/:#]/).pop() ?? v] : [],
    );
    return members.map((member) => variantOfProduct(member, varies, base));
  }
  // Several offers each with its own SKU or name are the product's variants (pack sizes, ...).
  const distinct = offers.filter(
    (o) => !hasType(o, ["AggregateOffer"]) && (firstText(o["sku"]) || firstText(o["name"])),
  );
  const keys = new Set(distinct.map((o) => `${firstText(o["sku"])}|${firstText(o["name"])}`));
  if (distinct.length < 2 || keys.size < 2) return [];
  return distinct.map((offer) => {
    const read = priceOfOffer(offer);
    return {
      sku: cleanCode(firstText(offer["sku"])),
      title: cleanText(firstText(offer["name"])),
      price: moneyOf(read.price),
      options: {},
      gtin: gtinOf(offer),
      availability: read.availability,
      image: imagesOf(offer["image"], base)[0] ?? null,
    };
  });
}

export function variantOfProduct(
  member: SchemaNode,
  varies: string[],
  base: string,
): ProductVariant {
  const offer = mainOffer(flattenOffers(member["offers"]));
  const options: Record<string, string> = {};
  const keys = varies.length > 0 ? varies : OPTION_KEYS;
  for (const key of keys) {
    const value = cleanText(firstText(member[key]));
    if (value) options[key] = value;
  }
  for (const prop of nodes(member["additionalProperty"])) {
    const name = cleanText(firstText(prop["name"]));
    const value = cleanText(firstText(prop["value"]));
    if (name && value) options[name] = value;
  }
  return {
    sku: cleanCode(firstText(member["sku"])),
    title: cleanText(firstText(member["name"])),
    price: moneyOf(offer?.price ?? null),
    options,
    gtin: gtinOf(member),
    availability: offer?.availability ?? null,
    image: imagesOf(member["image"], base)[0] ?? null,
  };
}

/** A variant's price needs a currency to be Money; the product-level merge fills the rest. */
function moneyOf(price: PriceValue | null): { amount: string; currency: string } | null {
  return price && price.currency ? { amount: price.amount, currency: price.currency } : null;
}
