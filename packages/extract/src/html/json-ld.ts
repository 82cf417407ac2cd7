import type { CheerioAPI } from "./dom.js";
import { newFound, setField, type Found } from "./found.js";
import { parseLenientJson } from "./lenient-json.js";
import { tagged } from "./page-index.js";
import {
  findProductNodes,
  firstText,
  hasType,
  normaliseJsonLd,
  nodes,
  type SchemaNode,
} from "./schema-node.js";
import { gtinOf, imagesOf, readSchemaProduct, variantOfProduct } from "./schema-product.js";

/**
 * Every JSON-LD block of the page, parsed leniently, with bare names and @id references resolved.
 */
export function readJsonLd($: CheerioAPI): SchemaNode[] {
  const roots: unknown[] = [];
  for (const el of tagged($, "script")) {
    const type = (el.attribs["type"] ?? "").toLowerCase();
    if (type.includes("ld+json")) roots.push(...parseLenientJson($(el).text()));
  }
  return normaliseJsonLd(roots);
}

/**
 * The page's product from JSON-LD, and, when the page lists one Product per variant (same name,
 * own SKU each), a second, last-resort source holding the first variant's SKU (and its picture
 * where pictures differ between variants): a variant's are not the product's, so what the page
 * shows for the product should win over them.
 */
export function jsonLdProduct(
  $: CheerioAPI,
  pageUrl: string,
  base: string,
): { main: Found | null; variantSku: Found | null } {
  const products = findProductNodes(readJsonLd($));
  const product = pickMainProduct(products, pageUrl);
  if (!product) return { main: null, variantSku: null };
  const found = readSchemaProduct(product, "json-ld", base);
  const name = firstText(product["name"]);
  const siblings = products.filter(
    (p) =>
      p !== product &&
      name !== null &&
      firstText(p["name"]) === name &&
      !hasType(p, ["ProductGroup"]),
  );
  if (siblings.length === 0 || hasType(product, ["ProductGroup"]))
    return { main: found, variantSku: null };
  const variants = [product, ...siblings].map((p) => variantOfProduct(p, [], base));
  found.values.variants = variants;
  found.methods.variants = "Product (one per variant)";
  // The first size may be sold out while others are not: the product is in stock if any is.
  if (
    found.values.availability !== "InStock" &&
    variants.some((v) => v.availability === "InStock")
  ) {
    found.values.availability = "InStock";
    found.methods.availability = "Product (one per variant): a variant in stock";
  }
  const variantSku = newFound("json-ld");
  const of = `(first of ${variants.length} variants)`;
  if (found.values.sku !== undefined) {
    setField(variantSku, "sku", found.values.sku, `${found.methods.sku ?? "sku"} ${of}`);
    delete found.values.sku;
    delete found.methods.sku;
  }
  // A GTIN or a picture that differs from variant to variant is the first variant's (another
  // colour than the page shows, perhaps), not the product's: the GTIN stays with the variants,
  // the picture is a last resort.
  const differs = (read: (p: SchemaNode) => string | null): boolean =>
    new Set([product, ...siblings].map(read)).size > 1;
  if (found.values.gtin !== undefined && differs(gtinOf)) {
    delete found.values.gtin;
    delete found.methods.gtin;
  }
  if (found.values.images !== undefined && differs((p) => imagesOf(p["image"], base)[0] ?? null)) {
    setField(variantSku, "images", found.values.images, `${found.methods.images ?? "image"} ${of}`);
    delete found.values.images;
    delete found.methods.images;
  }
  return { main: found, variantSku };
}

/**
 * The product the page is about, when markup holds several (related products, a group and its
 * members): the one naming this page's URL, else a group, else the first with offers.
 */
export function pickMainProduct(products: SchemaNode[], pageUrl: string): SchemaNode | null {
  if (products.length <= 1) return products[0] ?? null;
  const page = withoutFragment(pageUrl);
  const score = (node: SchemaNode): number => {
    let points = 0;
    const url = firstText(node["url"]) ?? firstText(node["@id"]);
    if (url && withoutFragment(url) === page) points += 4;
    if (hasType(node, ["ProductGroup"])) points += 2;
    if (nodes(node["offers"]).length > 0) points += 2;
    if (firstText(node["name"])) points += 1;
    return points;
  };
  let best = products[0] as SchemaNode;
  for (const node of products) if (score(node) > score(best)) best = node;
  return best;
}

function withoutFragment(url: string): string {
  return url.replace(/#.*$/, "").replace(/\?.*$/, "").replace(/\/$/, "");
}
