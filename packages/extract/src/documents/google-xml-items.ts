import type { TableMapper, TableRecord } from "./document-row.js";
import { GOOGLE_FEED_ATTRIBUTES, googleFeedMapper } from "./google-feed-mapper.js";
import type { XmlNode } from "./xml-items.js";

/** Google Merchant Center's product data namespace, whatever prefix a feed binds it to. */
export const GOOGLE_NAMESPACE = "http://base.google.com/ns/1.0";

const INDEX = new Map<string, number>(GOOGLE_FEED_ATTRIBUTES.map((name, i) => [name, i]));

/** Does this RSS item or Atom entry hold Google product data? */
export function isGoogleItem(item: XmlNode): boolean {
  return item.children.some((c) => c.uri === GOOGLE_NAMESPACE);
}

/**
 * Items of one Google feed read as rows of its TSV layout (all items share the same columns,
 * Google's attribute names), so RSS, Atom and TSV feeds read alike, variants of one
 * item_group_id included.
 */
export function googleXmlMapper(defaultCurrency: string | null): TableMapper {
  return googleFeedMapper(GOOGLE_FEED_ATTRIBUTES, defaultCurrency);
}

/**
 * An RSS `<item>` or Atom `<entry>` as a TSV row: `g:` elements by their attribute name, the
 * feed's own title/link/description (Atom: title, `<link href>`, summary) where no `g:` element
 * gives them; a repeated element (additional_image_link) joined with commas, as the TSV layout
 * writes it.
 */
export function googleItemRecord(item: XmlNode, row: number): TableRecord {
  const values: string[][] = GOOGLE_FEED_ATTRIBUTES.map(() => []);
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
    list.length > 0 ? list.join(",") : (fallback.get(GOOGLE_FEED_ATTRIBUTES[i]!) ?? ""),
  );
  return { row, cells };
}
