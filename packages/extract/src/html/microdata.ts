import type { CheerioAPI } from "./dom.js";
import { readItems, type Items } from "./dom-items.js";
import type { Found } from "./found.js";
import { pickMainProduct } from "./json-ld.js";
import { all, nodes } from "./schema-node.js";
import { readSchemaProduct } from "./schema-product.js";

export function readMicrodata($: CheerioAPI): Items {
  return readItems($, {
    scopeAttr: "itemscope",
    typeAttr: "itemtype",
    propAttr: "itemprop",
    opens: () => true,
  });
}

export function microdataProduct(items: Items, pageUrl: string, base: string): Found | null {
  const product = pickMainProduct(items.products, pageUrl);
  if (!product) return null;
  // An Offer marked up outside the Product's element (itemref left out) still belongs to it
  // when the page has one product.
  const stray = nodes(items.orphans.get("offers"));
  const withOffers =
    stray.length > 0 && items.products.length === 1
      ? { ...product, offers: [...all(product["offers"]), ...stray] }
      : product;
  return readSchemaProduct(withOffers, "microdata", base);
}

export function rdfaProduct($: CheerioAPI, pageUrl: string, base: string): Found | null {
  const items = readItems($, {
    scopeAttr: "typeof",
    typeAttr: "typeof",
    propAttr: "property",
    opens: (el) => (el.attribs["typeof"] ?? "").trim() !== "",
  });
  const product = pickMainProduct(items.products, pageUrl);
  return product ? readSchemaProduct(product, "rdfa", base) : null;
}
