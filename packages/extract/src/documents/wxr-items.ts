import { indexHeaders } from "./column-names.js";
import type { DocumentRow, TableRecord } from "./document-row.js";
import { woocommerceMapper } from "./woocommerce-mapper.js";
import type { XmlNode } from "./xml-items.js";

/** Attribute columns written per product or variation (WooCommerce's CSV has as many). */
const ATTRIBUTE_COLUMNS = 5;
/**
 * Products whose images name attachments not yet seen wait for them (WordPress writes
 * attachments in ID order, often after the products); past this many the oldest goes on with
 * the images found so far.
 */
const MAX_WAITING_ITEMS = 10_000;
/** Attachment URLs kept by ID; past this many, later ones are not resolved. */
const MAX_ATTACHMENTS = 200_000;

/** WooCommerce's product CSV columns, which a WXR product is written into. */
const HEADERS = [
  "ID",
  "Type",
  "SKU",
  "Name",
  "Parent",
  "Published",
  "Short description",
  "Description",
  "In stock?",
  "Stock",
  "Sale price",
  "Regular price",
  "Categories",
  "Tags",
  "Images",
  ...Array.from({ length: ATTRIBUTE_COLUMNS }, (_, i) => [
    `Attribute ${i + 1} name`,
    `Attribute ${i + 1} value(s)`,
  ]).flat(),
];
const COLUMN = new Map(HEADERS.map((h, i) => [h, i]));

interface Waiting {
  row: number;
  cells: string[];
  imageIds: string[];
}

/**
 * A WordPress export (WXR) of a WooCommerce shop: `product` items with their
 * `product_variation` items as variants (linked by wp:post_parent), prices, SKU and stock from
 * wp:postmeta, images from the `attachment` items that _thumbnail_id and
 * _product_image_gallery name. Every other post type (pages, posts, orders) is skipped. Each
 * product is written as a row of WooCommerce's CSV export and read by the same mapper, so both
 * exports of one shop import alike.
 */
export function wxrReader(defaultCurrency: string | null) {
  const mapper = woocommerceMapper(HEADERS, indexHeaders(HEADERS), defaultCurrency);
  const attachments = new Map<string, string>();
  const waiting = new Map<Waiting, Set<string>>();

  const resolve = (w: Waiting): TableRecord => {
    const urls = w.imageIds.flatMap((id) => {
      const url = attachments.get(id);
      return url ? [url] : [];
    });
    w.cells[COLUMN.get("Images")!] = urls.join(", ");
    return { row: w.row, cells: w.cells };
  };

  return {
    push(item: XmlNode, row: number): DocumentRow[] {
      const type = field(item, "post_type");
      const out: DocumentRow[] = [];
      if (type === "attachment") {
        const id = field(item, "post_id");
        const url = field(item, "attachment_url");
        if (id && url && attachments.size < MAX_ATTACHMENTS) attachments.set(id, url);
        for (const [w, missing] of waiting) {
          missing.delete(id);
          if (missing.size === 0) {
            waiting.delete(w);
            out.push(...mapper.push(resolve(w)));
          }
        }
        return out;
      }
      if (type !== "product" && type !== "product_variation") return out;
      const w = productRow(item, row, type === "product_variation");
      const missing = new Set(w.imageIds.filter((id) => !attachments.has(id)));
      if (missing.size === 0) return mapper.push(resolve(w));
      waiting.set(w, missing);
      for (const [oldest] of waiting) {
        if (waiting.size <= MAX_WAITING_ITEMS) break;
        waiting.delete(oldest);
        out.push(...mapper.push(resolve(oldest)));
      }
      return out;
    },
    end(): DocumentRow[] {
      const out = [...waiting.keys()].flatMap((w) => mapper.push(resolve(w)));
      waiting.clear();
      return [...out, ...mapper.end()];
    },
  };
}

/** The text of a direct child (any namespace: wp:, content:, excerpt: or none). */
function field(item: XmlNode, name: string): string {
  return item.children.find((c) => c.name === name)?.text ?? "";
}

function productRow(item: XmlNode, row: number, variation: boolean): Waiting {
  const meta = new Map<string, string>();
  for (const m of item.children) {
    if (m.name !== "postmeta") continue;
    const key = field(m, "meta_key");
    // A variable product repeats _price (one per distinct variation price, lowest first): the
    // last, its highest, is what WooCommerce's own CSV export writes for it.
    if (key) meta.set(key, field(m, "meta_value"));
  }
  const categories: string[] = [];
  const tags: string[] = [];
  const attributes = new Map<string, string[]>();
  let productType = "simple";
  for (const c of item.children) {
    if (c.name !== "category") continue;
    const domain = c.attributes.domain ?? "";
    if (domain === "product_cat") categories.push(c.text);
    else if (domain === "product_tag") tags.push(c.text);
    else if (domain === "product_type") productType = c.attributes.nicename ?? c.text;
    else if (domain.startsWith("pa_")) {
      const name = attributeName(domain);
      attributes.set(name, [...(attributes.get(name) ?? []), c.text]);
    }
  }
  if (variation) {
    for (const [key, value] of meta)
      if (key.startsWith("attribute_") && value) attributes.set(attributeName(key), [value]);
  }
  const cells = HEADERS.map(() => "");
  const set = (column: string, value: string) => {
    cells[COLUMN.get(column)!] = value;
  };
  const parent = field(item, "post_parent");
  set("ID", field(item, "post_id"));
  set("Type", variation ? "variation" : productType);
  set("SKU", meta.get("_sku") ?? "");
  set("Name", field(item, "title"));
  if (variation && parent && parent !== "0") set("Parent", `id:${parent}`);
  set("Published", field(item, "status") === "publish" ? "1" : "0");
  set("Description", field(item, "encoded"));
  const status = meta.get("_stock_status") ?? "";
  set("In stock?", status === "instock" ? "1" : status === "outofstock" ? "0" : status);
  if (meta.get("_manage_stock") === "yes") set("Stock", meta.get("_stock") ?? "");
  set("Sale price", meta.get("_sale_price") ?? "");
  // A variable product has no regular price of its own: its _price stands for it.
  set("Regular price", meta.get("_regular_price") || meta.get("_price") || "");
  set("Categories", categories.join(", "));
  set("Tags", tags.join(", "));
  [...attributes].slice(0, ATTRIBUTE_COLUMNS).forEach(([name, values], i) => {
    set(`Attribute ${i + 1} name`, name);
    set(`Attribute ${i + 1} value(s)`, values.join(", "));
  });
  const imageIds = [
    meta.get("_thumbnail_id") ?? "",
    ...(meta.get("_product_image_gallery") ?? "").split(","),
  ]
    .map((id) => id.trim())
    .filter((id) => /^\d+$/.test(id) && id !== "0");
  return { row, cells, imageIds: [...new Set(imageIds)] };
}

/** "attribute_pa_color" and "pa_color" are "Color"; a custom attribute keeps its name. */
function attributeName(key: string): string {
  const name = key
    .replace(/^attribute_/, "")
    .replace(/^pa_/, "")
    .replace(/[-_]+/g, " ");
  return name.charAt(0).toUpperCase() + name.slice(1);
}
