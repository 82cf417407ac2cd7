import type { CheerioAPI, ElementNode } from "./dom.js";
import { isRoot, isTag } from "./dom.js";
import { withAttr } from "./page-index.js";
import { bareName, hasType, PRODUCT_TYPES, type SchemaNode } from "./schema-node.js";
import { titleText } from "./title-text.js";

/**
 * Microdata and RDFa have the same shape: an element opens an item (itemscope / typeof), and
 * elements below it name its properties (itemprop / property), the nearest open item owning
 * each. This turns either into schema nodes, in one pass over the property elements.
 */
export interface ItemSyntax {
  /** Attribute whose presence marks the elements that open an item (itemscope, typeof). */
  scopeAttr: string;
  typeAttr: string;
  propAttr: string;
  /** Whether the element opens an item. */
  opens: (el: ElementNode) => boolean;
}

export interface Items {
  /** Product items not inside another product (related products are not the page's product). */
  products: SchemaNode[];
  /** Properties outside any item: `<meta itemprop="price">` left in a template. */
  orphans: Map<string, unknown[]>;
}

const SRC_TAGS = new Set(["img", "audio", "embed", "iframe", "source", "track", "video"]);
const HREF_TAGS = new Set(["a", "area", "link"]);
const IDENTIFIERS = new Set(["sku", "mpn", "productID"]);

export function readItems($: CheerioAPI, syntax: ItemSyntax): Items {
  const nodeOf = new Map<ElementNode, SchemaNode>();
  const ownerOf = new Map<ElementNode, ElementNode | null>();
  const props = withAttr($, syntax.propAttr);
  for (const el of withAttr($, syntax.scopeAttr)) {
    if (!syntax.opens(el)) continue;
    const types = (el.attribs[syntax.typeAttr] ?? "").split(/\s+/).filter(Boolean).map(bareName);
    nodeOf.set(el, { "@type": types });
  }
  const orphans = new Map<string, unknown[]>();
  if (nodeOf.size === 0 && props.length === 0) return { products: [], orphans };
  const owner = (el: ElementNode): ElementNode | null => {
    let current = el.parent;
    while (current && !isRoot(current)) {
      if (isTag(current) && nodeOf.has(current)) return current;
      current = current.parent;
    }
    return null;
  };
  for (const el of props) {
    const names = (el.attribs[syntax.propAttr] ?? "").split(/\s+/).filter(Boolean).map(bareName);
    if (names.length === 0) continue;
    const item = owner(el);
    const value =
      nodeOf.get(el) ??
      (names.includes("name")
        ? nameOf($, el, syntax.propAttr)
        : valueOf(
            $,
            el,
            names.some((n) => IDENTIFIERS.has(n)),
          ));
    if (nodeOf.has(el)) ownerOf.set(el, item);
    const bucket = item ? nodeOf.get(item) : undefined;
    for (const name of names) {
      // Own arrays only: itemprop="constructor" must not reach Object.prototype.
      const values = bucket
        ? Object.hasOwn(bucket, name)
          ? bucket[name]
          : undefined
        : orphans.get(name);
      if (Array.isArray(values)) values.push(value);
      else if (bucket) bucket[name] = [value];
      else orphans.set(name, [value]);
    }
  }
  const products: SchemaNode[] = [];
  for (const [el, node] of nodeOf) {
    if (!hasType(node, PRODUCT_TYPES)) continue;
    let up = ownerOf.has(el) ? (ownerOf.get(el) ?? null) : owner(el);
    let nested = false;
    while (up) {
      const upper = nodeOf.get(up);
      if (upper && hasType(upper, PRODUCT_TYPES)) nested = true;
      up = ownerOf.has(up) ? (ownerOf.get(up) ?? null) : owner(up);
    }
    if (!nested) products.push(node);
  }
  return { products, orphans };
}

/**
 * A name is the text the element shows, not a link's URL, without hidden spans or the nested
 * properties (a SKU, a price) a shop marks up inside the heading.
 */
function nameOf($: CheerioAPI, el: ElementNode, propAttr: string): string {
  if (el.attribs["content"] !== undefined || SRC_TAGS.has(el.name)) return valueOf($, el, false);
  return titleText(el, (inner) => inner.attribs[propAttr] !== undefined) ?? valueOf($, el, false);
}

/** A property's value by the microdata rules, with `content` first wherever it is (shops put it
 * on spans: `<span itemprop="price" content="12.99">12,99 €</span>`). */
function valueOf($: CheerioAPI, el: ElementNode, identifier: boolean): string {
  const $el = $(el);
  const content = $el.attr("content");
  if (content !== undefined && identifier) {
    // "4667999" in content, "466/7999" on screen: the code as people see and search for it.
    const shown = $el.text().trim();
    const bare = (text: string): string => text.replace(/[^\p{L}\d]/gu, "").toLowerCase();
    if (shown !== "" && shown !== content && bare(shown) === bare(content)) return shown;
  }
  if (content !== undefined) return content;
  const tag = el.tagName.toLowerCase();
  if (SRC_TAGS.has(tag)) return $el.attr("src") ?? $el.attr("data-src") ?? "";
  if (HREF_TAGS.has(tag)) return $el.attr("href") ?? $el.attr("resource") ?? "";
  if (tag === "object") return $el.attr("data") ?? "";
  if (tag === "data" || tag === "meter") return $el.attr("value") ?? $el.text();
  if (tag === "time") return $el.attr("datetime") ?? $el.text();
  const resource = $el.attr("resource") ?? $el.attr("href");
  if (resource !== undefined && $el.text().trim() === "") return resource;
  return $el.text();
}
