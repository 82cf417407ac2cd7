import type { ColumnAssignment, MappedField } from "./column-mapping.js";
import type { TableMapper, TableRecord } from "./document-row.js";
import { genericTableMapper } from "./generic-table-mapper.js";
import type { XmlNode } from "./xml-items.js";

/** Google Merchant Center's product data namespace, whatever prefix a feed binds it to. */
export const GOOGLE_NAMESPACE = "http://base.google.com/ns/1.0";

/**
 * The Google product data attributes read from a feed, as the TSV layout names its columns,
 * and how each is read.
 */
const ATTRIBUTES: readonly (readonly [string, MappedField, number?])[] = [
  ["id", "sku"],
  ["title", "title"],
  ["description", "description"],
  ["link", "sourceUrl"],
  ["image_link", "images", 0],
  ["additional_image_link", "images", 1],
  ["price", "price"],
  ["sale_price", "salePrice"],
  ["availability", "availability"],
  ["quantity", "quantity"],
  ["gtin", "gtin"],
  ["mpn", "mpn"],
  ["brand", "brand"],
  ["item_group_id", "parent"],
  ["color", "option"],
  ["size", "option"],
  ["material", "option"],
  ["pattern", "option"],
  ["condition", "attribute"],
  ["product_type", "attribute"],
  ["google_product_category", "attribute"],
  ["gender", "attribute"],
  ["age_group", "attribute"],
];

export const GOOGLE_XML_HEADERS: readonly string[] = ATTRIBUTES.map(([name]) => name);
const INDEX = new Map(GOOGLE_XML_HEADERS.map((name, i) => [name, i]));

/** Does this RSS item or Atom entry hold Google product data? */
export function isGoogleItem(item: XmlNode): boolean {
  return item.children.some((c) => c.uri === GOOGLE_NAMESPACE);
}

/** Items of one Google feed as rows of its TSV layout (all items share the same columns). */
export function googleXmlMapper(defaultCurrency: string | null): TableMapper {
  const assignments: ColumnAssignment[] = ATTRIBUTES.map(([header, field, rank], index) => ({
    index,
    header,
    field,
    name: field === "option" || field === "attribute" ? header : null,
    rank: rank ?? 0,
  }));
  return genericTableMapper(GOOGLE_XML_HEADERS, assignments, defaultCurrency);
}

/**
 * An RSS `<item>` or Atom `<entry>` as a TSV row: `g:` elements by their attribute name, the
 * feed's own title/link/description (Atom: title, `<link href>`, summary) where no `g:` element
 * gives them; a repeated element (additional_image_link) joined with commas, as the TSV layout
 * writes it.
 */
export function googleItemRecord(item: XmlNode, row: number): TableRecord {
  const values: string[][] = GOOGLE_XML_HEADERS.map(() => []);
  const fallback = new Map<string, string>();
  for (const child of item.children) {
    if (child.uri === GOOGLE_NAMESPACE) {
      const i = INDEX.get(child.name);
      if (i !== undefined && child.text !== "") values[i]!.push(child.text);
      continue;
    }
    if (child.children.length > 0) continue;
    const text = child.name === "link" ? (child.attributes.href ?? child.text) : child.text;
    const name = child.name === "summary" || child.name === "content" ? "description" : child.name;
    if (text !== "" && INDEX.has(name) && !fallback.has(name) && name !== "id")
      fallback.set(name, text);
  }
  const cells = values.map((list, i) =>
    list.length > 0 ? list.join(",") : (fallback.get(GOOGLE_XML_HEADERS[i]!) ?? ""),
  );
  return { row, cells };
}
