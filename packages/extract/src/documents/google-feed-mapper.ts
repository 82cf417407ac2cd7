import { emptyCandidate, type ProductCandidate } from "../product-candidate.js";
import {
  absoluteUrl,
  currencyCode,
  detached,
  imageUrls,
  toAvailability,
  toGtin,
} from "./cell-values.js";
import { genericFieldOf, normaliseName } from "./column-names.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { fillFromFirstVariant } from "./generic-product.js";
import { groupTitle, variantFromProduct } from "./group-product.js";
import { parentGroups, type ParentGroup } from "./parent-groups.js";
import {
  applyPrice,
  attachVariants,
  documentSource,
  readPriceCell,
  type CurrencyContext,
} from "./price-fields.js";
import { applyStock, followStock, readStockCell } from "./stock-cells.js";

/**
 * Google Merchant Center's product data specification, as attribute names: the header row of a
 * TSV feed, and the elements of an RSS/Atom feed's items (the `xml` reader passes those here as
 * table records with these headers). A header may carry a `g:` or `g_` prefix.
 */
export const GOOGLE_FEED_ATTRIBUTES = [
  "id",
  "title",
  "description",
  "link",
  "mobile_link",
  "image_link",
  "additional_image_link",
  "availability",
  "availability_date",
  "price",
  "sale_price",
  "sale_price_effective_date",
  "brand",
  "gtin",
  "mpn",
  "identifier_exists",
  "condition",
  "adult",
  "item_group_id",
  "color",
  "size",
  "material",
  "pattern",
  "gender",
  "age_group",
  "size_type",
  "size_system",
  "google_product_category",
  "product_type",
  "quantity",
  "multipack",
  "is_bundle",
  "shipping_weight",
  "custom_label_0",
  "custom_label_1",
  "custom_label_2",
  "custom_label_3",
  "custom_label_4",
] as const;

export type GoogleFeedAttribute = (typeof GOOGLE_FEED_ATTRIBUTES)[number];

/** The attributes that tell variants of one `item_group_id` apart (Google's variant attributes). */
export const GOOGLE_VARIANT_ATTRIBUTES = [
  "color",
  "size",
  "material",
  "pattern",
  "gender",
  "age_group",
] as const satisfies readonly GoogleFeedAttribute[];

/** Attributes kept on the product as they are (`attributes`), under their Google names. */
const KEPT = [
  "condition",
  "google_product_category",
  "product_type",
  "identifier_exists",
  "adult",
  "multipack",
  "is_bundle",
  "size_type",
  "size_system",
  "shipping_weight",
  "availability_date",
  "custom_label_0",
  "custom_label_1",
  "custom_label_2",
  "custom_label_3",
  "custom_label_4",
] as const satisfies readonly GoogleFeedAttribute[];

/** The Google attribute a header names: "g:price", "g_price", "Price" and "price" are `price`. */
export function googleAttributeOf(header: string): GoogleFeedAttribute | null {
  const name = header
    .trim()
    .toLowerCase()
    .replace(/^g[:_]/, "")
    .replace(/[\s-]+/g, "_");
  return (GOOGLE_FEED_ATTRIBUTES as readonly string[]).includes(name)
    ? (name as GoogleFeedAttribute)
    : null;
}

/** Headers that only Google's specification uses (with `id`, `title`, `price`: a Google feed). */
const GOOGLE_ONLY = [
  "image_link",
  "availability",
  "item_group_id",
  "link",
  "additional_image_link",
];

/** A header row in Google's attribute names: `id`, `title`, `price` and a Google-only one. */
export function isGoogleFeedHeader(headers: readonly string[]): boolean {
  const names = new Set(headers.map(googleAttributeOf));
  return (
    names.has("id") &&
    names.has("title") &&
    names.has("price") &&
    GOOGLE_ONLY.some((n) => names.has(n as GoogleFeedAttribute))
  );
}

/** One feed item, read: what a product or a variant of its group needs. */
interface Item {
  id: string | null;
  title: string | null;
  product: ProductCandidate;
  options: Record<string, string>;
}

/**
 * A Google feed read as a table: an item without `item_group_id` is a product; items sharing one
 * are one product with a variant each (see `groupProduct`), whatever their order.
 */
export function googleFeedMapper(
  headers: readonly string[],
  defaultCurrency: string | null,
): TableMapper {
  const columns = new Map<GoogleFeedAttribute, number>();
  /** Columns the specification does not name (custom ones), kept as attributes by header. */
  const others: { index: number; header: string }[] = [];
  /** A sheet that looks like a feed but states its currency in a column of its own. */
  let currencyColumn: number | undefined;
  headers.forEach((h, i) => {
    const name = googleAttributeOf(h);
    if (name && !columns.has(name)) columns.set(name, i);
    else if (!name && h.trim() !== "") {
      if (currencyColumn === undefined && genericFieldOf(normaliseName(h))?.field === "currency")
        currencyColumn = i;
      else others.push({ index: i, header: h.trim() });
    }
  });
  const label = (name: GoogleFeedAttribute) => {
    const i = columns.get(name);
    return i === undefined ? name : headers[i]!.trim();
  };
  const get = (cells: readonly string[], name: GoogleFeedAttribute) => {
    const i = columns.get(name);
    return i === undefined ? "" : (cells[i] ?? "").trim();
  };
  const method = (name: GoogleFeedAttribute) => `column ${label(name)}`;

  const groups = parentGroups<never, Item>({
    finish: groupProduct,
    unknownParent: "own",
    lateError: (row, ref) =>
      `row ${row}: item of group "${ref}" comes after its group was already imported (the feed is too long between its items); put items of one item_group_id together`,
  });

  function read(record: TableRecord): Item | DocumentRow {
    const { cells, row } = record;
    const ctx: CurrencyContext = {
      rowCurrency: currencyColumn === undefined ? null : currencyCode(cells[currencyColumn]),
      defaultCurrency,
    };
    const p = emptyCandidate();
    const title = get(cells, "title");
    if (!title)
      return {
        row,
        ok: false,
        error: `row ${row}: no title (Google's ${label("title")} attribute)`,
      };
    p.title = title;
    p.provenance.title = documentSource(method("title"));
    const text = (key: "sku" | "description" | "brand" | "mpn", name: GoogleFeedAttribute) => {
      const v = get(cells, name);
      if (v) {
        p[key] = v;
        p.provenance[key] = documentSource(method(name));
      }
    };
    text("sku", "id");
    text("description", "description");
    text("brand", "brand");
    text("mpn", "mpn");
    const gtin = toGtin(get(cells, "gtin"));
    if (gtin) {
      p.gtin = gtin;
      p.provenance.gtin = documentSource(method("gtin"));
    }
    const link = absoluteUrl(get(cells, "link"));
    if (link) {
      p.sourceUrl = link;
      p.provenance.sourceUrl = documentSource(method("link"));
    }
    const availability = toAvailability(get(cells, "availability"));
    if (availability) {
      p.availability = availability;
      p.provenance.availability = documentSource(method("availability"));
    }
    const price = salePriceInEffect(cells) ? "sale_price" : "price";
    const cell = readPriceCell(get(cells, price), method(price), `row ${row}`, ctx);
    if (cell && "error" in cell) return { row, ok: false, error: cell.error };
    if (cell) applyPrice(p, cell.read, method(price), ctx);
    const stock = readStockCell(get(cells, "quantity"), method("quantity"), `row ${row}`);
    if (stock && "error" in stock) return { row, ok: false, error: stock.error };
    if (stock) applyStock(p, stock, method("quantity"));
    for (const name of ["image_link", "additional_image_link"] as const) {
      // additional_image_link is comma-separated in a TSV feed.
      for (const url of imageUrls(get(cells, name).split(","))) {
        if (!p.images.includes(url)) p.images.push(url);
        p.provenance.images ??= documentSource(method(name));
      }
    }
    for (const name of KEPT) {
      const v = get(cells, name);
      if (v) p.attributes[name] = v;
    }
    for (const { index, header } of others) {
      const v = cells[index]?.trim();
      if (v) p.attributes[header] = v;
    }
    const options: Record<string, string> = {};
    for (const name of GOOGLE_VARIANT_ATTRIBUTES) {
      const v = get(cells, name);
      if (v) options[name] = v;
    }
    followStock(p);
    return { id: p.sku, title, product: p, options };
  }

  /** `sale_price` counts when set and, with `sale_price_effective_date`, within its interval. */
  function salePriceInEffect(cells: readonly string[]): boolean {
    if (!get(cells, "sale_price")) return false;
    const range = get(cells, "sale_price_effective_date");
    if (!range) return true;
    const [from, to] = range.split("/").map((d) => Date.parse(d.trim()));
    const now = Date.now();
    if (from !== undefined && !Number.isNaN(from) && now < from) return false;
    if (to !== undefined && !Number.isNaN(to) && now > to) return false;
    return true;
  }

  /**
   * One product of an `item_group_id`: its title is the words every item's title starts with
   * (without a trailing " -", "," or "|"), else the first item's title without the values of the
   * options that tell the items apart; sku is the group id; options are the variant attributes
   * whose values differ within the group (the others are the product's attributes).
   */
  function groupProduct(group: ParentGroup<never, Item>): DocumentRow {
    const items = group.variants.map((v) => v.item);
    const first = items[0]!;
    const product = structuredClone(first.product);
    const differing = GOOGLE_VARIANT_ATTRIBUTES.filter(
      (name) => new Set(items.map((i) => i.options[name] ?? "")).size > 1,
    );
    product.title = groupTitle(
      items.map((i) => i.title ?? ""),
      items.flatMap((i) => differing.map((n) => i.options[n] ?? "")).filter(Boolean),
    );
    product.sku = group.ref;
    product.provenance.sku = documentSource(method("item_group_id"));
    product.price = null;
    product.quantity = null;
    product.availability = null;
    product.gtin = null;
    delete product.provenance.price;
    delete product.provenance.quantity;
    delete product.provenance.availability;
    delete product.provenance.gtin;
    for (const name of GOOGLE_VARIANT_ATTRIBUTES)
      if (!differing.includes(name) && first.options[name])
        product.attributes[name] = first.options[name];
    product.attributes.item_group_id = group.ref;
    const drafts = items.map((item) => {
      const options: Record<string, string> = {};
      for (const name of differing) if (item.options[name]) options[name] = item.options[name];
      return variantFromProduct(item.product, item.title, options);
    });
    delete product.attributes.priceWithoutCurrency;
    for (const item of items.slice(1))
      for (const url of item.product.images)
        if (!product.images.includes(url)) product.images.push(url);
    const how = `rows linked by column ${label("item_group_id")}`;
    attachVariants(product, drafts, how);
    fillFromFirstVariant(product, how);
    product.sku = group.ref;
    followStock(product);
    return { row: group.variants[0]!.row, ok: true, product };
  }

  return {
    push(record: TableRecord): DocumentRow[] {
      const item = read(record);
      if (!("options" in item)) return [item];
      const groupId = get(record.cells, "item_group_id");
      if (!groupId) return [{ row: record.row, ok: true, product: item.product }];
      return groups.variant(record.row, detached(item), detached(groupId), detached(groupId));
    },
    end: () => groups.end(),
  };
}
