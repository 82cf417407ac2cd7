/**
 * schema.org data as plain objects, whichever syntax it came in: JSON-LD as parsed, microdata
 * and RDFa converted to the same shape ({ "@type": "Product", name: "...", offers: {...} }).
 * Property names are bare ("name", not "schema:name" or "http://schema.org/name").
 */
export type SchemaNode = { [key: string]: unknown };

export function isNode(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value as a list: schema.org allows one or many anywhere. */
export function all(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

export function nodes(value: unknown): SchemaNode[] {
  return all(value).filter(isNode);
}

/**
 * The type names of a node, bare and in schema.org's spelling: "http://schema.org/Product",
 * "schema:product" and "PRODUCT" are "Product". Consumers of schema.org compare type names
 * case-insensitively; a name schema.org does not know here keeps its own spelling.
 */
export function typesOf(node: SchemaNode): string[] {
  return all(node["@type"])
    .filter((t): t is string => typeof t === "string")
    .map((t) => {
      const bare = bareName(t);
      return SPELLING.get(bare.toLowerCase()) ?? bare;
    });
}

export function hasType(node: SchemaNode, names: readonly string[]): boolean {
  return typesOf(node).some((t) => names.includes(t));
}

/** A name without its vocabulary: "https://schema.org/Product/" and "schema:Product" are
 * "Product". */
export function bareName(name: string): string {
  const trimmed = name.trim().replace(/[/#]+$/, "");
  const cut = Math.max(
    trimmed.lastIndexOf("/"),
    trimmed.lastIndexOf(":"),
    trimmed.lastIndexOf("#"),
  );
  return cut >= 0 ? trimmed.slice(cut + 1) : trimmed;
}

export const PRODUCT_TYPES = [
  "Product",
  "ProductGroup",
  "IndividualProduct",
  "ProductModel",
  "SomeProducts",
  "Vehicle",
  "Car",
  "Motorcycle",
  "Book",
  "Drug",
  "DietarySupplement",
] as const;

// The types the readers ask about, in schema.org's spelling (see typesOf).
const SPELLING = new Map(
  [
    ...PRODUCT_TYPES,
    "Offer",
    "AggregateOffer",
    "OfferCatalog",
    "ItemList",
    "ListItem",
    "Brand",
    "Organization",
    "Thing",
    "WebPage",
    "ItemPage",
    "PropertyValue",
    "ImageObject",
    "PriceSpecification",
    "UnitPriceSpecification",
  ].map((name) => [name.toLowerCase(), name]),
);

/** First value that is a string or number, as a string. */
export function firstText(value: unknown): string | null {
  for (const item of all(value)) {
    if (typeof item === "string" && item.trim() !== "") return item;
    if (typeof item === "number" && Number.isFinite(item)) return String(item);
    if (isNode(item)) {
      const inner = item["@value"] ?? item["name"];
      if (typeof inner === "string" || typeof inner === "number") return String(inner);
    }
  }
  return null;
}

/**
 * JSON-LD with bare property names and @id references replaced by the node they name, so
 * `"brand": {"@id": "#brand"}` reads like an inline brand. Cycles stop at the second visit.
 */
export function normaliseJsonLd(roots: unknown[]): SchemaNode[] {
  const byId = new Map<string, SchemaNode>();
  const collect = (value: unknown): void => {
    for (const item of all(value)) {
      if (!isNode(item)) continue;
      const id = item["@id"];
      if (typeof id === "string" && Object.keys(item).length > 1 && !byId.has(id))
        byId.set(id, item);
      for (const [key, inner] of Object.entries(item)) if (key !== "@context") collect(inner);
    }
  };
  roots.forEach(collect);
  const seen = new WeakMap<SchemaNode, SchemaNode>();
  const convert = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.map((v) => convert(v, depth));
    if (!isNode(value)) return value;
    let node = value;
    const id = node["@id"];
    if (typeof id === "string" && Object.keys(node).length === 1) node = byId.get(id) ?? node;
    const done = seen.get(node);
    if (done) return done;
    const out: SchemaNode = {};
    seen.set(node, out);
    if (depth > 12) return out;
    for (const [key, inner] of Object.entries(node)) {
      if (key === "@context") continue;
      out[key.startsWith("@") ? key : bareName(key)] = convert(inner, depth + 1);
    }
    return out;
  };
  return roots.flatMap((root) => all(convert(root, 0))).filter(isNode);
}

/** Product nodes reachable from the roots through @graph, mainEntity and the like, not through
 * lists of other products (a category page's ItemList is not a product page). */
export function findProductNodes(roots: SchemaNode[]): SchemaNode[] {
  const found: SchemaNode[] = [];
  const visited = new Set<SchemaNode>();
  const walk = (node: SchemaNode, depth: number): void => {
    if (visited.has(node) || depth > 8) return;
    visited.add(node);
    if (hasType(node, PRODUCT_TYPES)) {
      found.push(node);
      return;
    }
    for (const key of [
      "@graph",
      "mainEntity",
      "mainEntityOfPage",
      "about",
      "itemOffered",
      "item",
    ]) {
      for (const inner of nodes(node[key])) walk(inner, depth + 1);
    }
  };
  roots.forEach((root) => walk(root, 0));
  return found;
}
