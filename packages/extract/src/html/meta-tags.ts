import { normaliseAvailability } from "./availability.js";
import type { CheerioAPI } from "./dom.js";
import type { Items } from "./dom-items.js";
import { newFound, setField, type Found } from "./found.js";
import { tagged } from "./page-index.js";
import { isNotProductPicture } from "./markup-images.js";
import { readAmount } from "./read-amount.js";
import { brandOf, cleanGtin } from "./schema-product.js";
import { firstText } from "./schema-node.js";
import { cleanCode, cleanText, squash } from "./text.js";
import { resolveUrl } from "./urls.js";

/** All <meta> values by lower-cased property or name, in page order. */
export function readMetaTags($: CheerioAPI): Map<string, string[]> {
  const meta = new Map<string, string[]>();
  for (const el of tagged($, "meta")) {
    const key = (el.attribs["property"] ?? el.attribs["name"] ?? el.attribs["itemprop"] ?? "")
      .trim()
      .toLowerCase();
    const content = el.attribs["content"];
    if (!key || content === undefined) continue;
    const values = meta.get(key);
    if (values) values.push(content);
    else meta.set(key, [content]);
  }
  return meta;
}

const OG_PRODUCT_TYPES = /^(og:)?product(\.item|\.group)?$/i;

/**
 * OpenGraph and its product namespace (product:price:amount, og:price:amount, ...), twitter
 * cards, and microdata properties left outside any item. The title is cleaned of the
 * site-name suffix og:title so often carries.
 */
export function metaProduct(
  meta: Map<string, string[]>,
  orphans: Items["orphans"],
  base: string,
): Found {
  const get = (...keys: string[]): { value: string; key: string } | null => {
    for (const key of keys) {
      const value = meta.get(key)?.find((v) => v.trim() !== "");
      if (value !== undefined) return { value, key };
    }
    return null;
  };
  const ogType = get("og:type")?.value ?? "";
  const priceKeys = [
    "product:price:amount",
    "og:price:amount",
    "product:sale_price:amount",
    "twitter:data1",
  ];
  const amount = get(...priceKeys.slice(0, 3));
  const found = newFound("opengraph", OG_PRODUCT_TYPES.test(ogType.trim()) || amount !== null);
  const title = get("og:title", "twitter:title");
  if (title)
    setField(
      found,
      "title",
      stripSiteName(cleanText(title.value), get("og:site_name")?.value ?? null, base),
      title.key,
    );
  const currency = get(
    "product:price:currency",
    "og:price:currency",
    "product:sale_price:currency",
  );
  if (amount)
    setField(found, "price", readAmount(amount.value, currency?.value ?? null), amount.key);
  found.prices = priceKeys.slice(0, 2).flatMap((key) =>
    (meta.get(key) ?? []).flatMap((value) => {
      const price = readAmount(value, currency?.value ?? null);
      return price ? [{ price, method: key }] : [];
    }),
  );
  found.currency = currency?.value ?? null;
  const availability = get("product:availability", "og:availability");
  if (availability)
    setField(found, "availability", normaliseAvailability(availability.value), availability.key);
  const brand = get("product:brand", "og:brand");
  if (brand) setField(found, "brand", cleanText(brand.value), brand.key);
  const sku = get("product:retailer_item_id", "product:sku");
  if (sku) setField(found, "sku", cleanCode(sku.value), sku.key);
  const gtin = get(
    "product:gtin",
    "product:ean",
    "product:upc",
    "product:isbn",
    "og:upc",
    "og:ean",
  );
  if (gtin) setField(found, "gtin", cleanGtin(gtin.value), gtin.key);
  const mpn = get("product:mfr_part_no", "product:mpn");
  if (mpn) setField(found, "mpn", cleanCode(mpn.value), mpn.key);
  const description = get("og:description", "description", "twitter:description");
  if (description) setField(found, "description", cleanText(description.value), description.key);
  // og:image:alt and twitter:image:alt describe the og:image and twitter:image in the same place.
  const images = [
    ["og:image:secure_url", "og:image:alt"],
    ["og:image", "og:image:alt"],
    ["og:image:url", "og:image:alt"],
    ["twitter:image", "twitter:image:alt"],
    ["twitter:image:src", "twitter:image:alt"],
  ]
    .flatMap(([key = "", alt = ""]) =>
      (meta.get(key) ?? []).filter((_, i) => !isNotProductPicture("", meta.get(alt)?.[i])),
    )
    .map((href) => resolveUrl(href, base))
    .filter((url): url is string => url !== null);
  setField(found, "images", [...new Set(images)], "og:image");
  readOrphans(found, orphans, base);
  return found;
}

/** itemprop values outside an item: a price block pasted into a page without its Product. */
function readOrphans(found: Found, orphans: Items["orphans"], base: string): void {
  const one = (name: string): string | null => firstText(orphans.get(name));
  const price = readAmount(one("price") ?? one("lowPrice"), one("priceCurrency"));
  setField(found, "price", price, "itemprop price");
  if (!found.currency) found.currency = one("priceCurrency");
  setField(found, "sku", cleanCode(one("sku")), "itemprop sku");
  setField(
    found,
    "gtin",
    cleanGtin(one("gtin13") ?? one("gtin") ?? one("gtin12") ?? one("gtin14") ?? one("gtin8")),
    "itemprop gtin",
  );
  setField(found, "mpn", cleanCode(one("mpn")), "itemprop mpn");
  setField(found, "brand", brandOf(orphans.get("brand")), "itemprop brand");
  setField(
    found,
    "availability",
    normaliseAvailability(one("availability")),
    "itemprop availability",
  );
  const image = resolveUrl(one("image"), base);
  if (image && !found.values.images) setField(found, "images", [image], "itemprop image");
}

/**
 * "Blue Shirt | Acme Store" is "Blue Shirt" when og:site_name is "Acme Store", or, without a
 * site name, when the shop's host is acme-store.com (or acmestore.de, amazon.de for "Amazon.de").
 */
export function stripSiteName(
  title: string | null,
  siteName: string | null,
  base = "",
): string | null {
  if (!title) return null;
  const site = cleanText(siteName);
  const parts = title.split(/\s+[|\-–—·•]\s+|\s*[:：]\s+|\s*[|｜]\s*/u);
  if (parts.length < 2) return title;
  const shop = [site ? squash(site) : "", squash(hostLabel(base))].filter(
    (name) => name.length >= 3,
  );
  const isShop = (part: string): boolean =>
    shop.some((name) => squash(part) === name || squash(part).startsWith(name));
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (isShop(last))
    return title.slice(0, title.lastIndexOf(last)).replace(/[\s|\-–—:·•｜]+$/u, "") || title;
  if (isShop(first)) return title.slice(first.length).replace(/^[\s|\-–—:·•｜]+/u, "") || title;
  return title;
}

/** The shop's own label in a host: "www.acme-store.co.uk" gives "acme-store". */
function hostLabel(url: string): string {
  try {
    const labels = new URL(url).hostname.split(".").filter((l) => l !== "www");
    const generic = /^(com|co|org|net|shop|store)$/;
    while (
      labels.length > 1 &&
      (generic.test(labels[labels.length - 1] ?? "") ||
        (labels[labels.length - 1] ?? "").length <= 3)
    )
      labels.pop();
    return labels[labels.length - 1] ?? "";
  } catch {
    return "";
  }
}
