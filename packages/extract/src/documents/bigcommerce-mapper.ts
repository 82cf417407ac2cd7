import { emptyCandidate, type ProductCandidate } from "../product-candidate.js";
import { absoluteUrl, toGtin } from "./cell-values.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { fillFromFirstVariant } from "./generic-product.js";
import {
  addAmounts,
  platformColumns,
  setText,
  splitImages,
  type PlatformColumns,
} from "./platform-columns.js";
import {
  applyPrice,
  attachVariants,
  documentSource,
  readPriceCell,
  variantDraft,
  type CurrencyContext,
  type VariantDraft,
} from "./price-fields.js";
import { followStock, readStockCell } from "./stock-cells.js";

/** BigCommerce allows 600 variants a product; far beyond that the Item column is wrong. */
const MAX_ROWS_PER_PRODUCT = 5000;

export type BigCommerceLayout = "bigcommerce" | "bigcommerce-v3";

/** The column names of one layout, normalised. */
interface Layout {
  kind: string;
  title: string;
  sku: string[];
  price: string;
  salePrice: string;
  retailPrice: string;
  stock: string[];
  tracking: string;
  gtin: string[];
  mpn: string[];
  brand: string[];
  description: string;
  id: string;
  category: string;
  visible: string;
  /** The values of the kind column that start a product, add a variant, an image, a rule. */
  product: string;
  variant: string;
  image: string | null;
  rule: string | null;
  /** Inventory Tracking values meaning "stock counted per variant", "not counted". */
  byVariant: string[];
  untracked: string[];
}

const LEGACY: Layout = {
  kind: "itemtype",
  title: "productname",
  sku: ["productcodesku", "sku"],
  price: "price",
  salePrice: "saleprice",
  retailPrice: "retailprice",
  stock: ["currentstocklevel"],
  tracking: "trackinventory",
  gtin: ["productupcean", "gpsglobaltradeitemnumber"],
  mpn: ["gpsmanufacturerpartnumber", "manufacturerpartnumber"],
  brand: ["brandname", "brand"],
  description: "productdescription",
  id: "productid",
  category: "category",
  visible: "productvisible",
  product: "product",
  variant: "sku",
  image: null,
  rule: "rule",
  byVariant: ["byoption"],
  untracked: ["none", "notracking"],
};

const V3: Layout = {
  kind: "item",
  title: "name",
  sku: ["sku"],
  price: "price",
  salePrice: "saleprice",
  retailPrice: "retailprice",
  stock: ["currentstock", "inventorylevel", "stock"],
  tracking: "inventorytracking",
  gtin: ["upcean", "globaltradenumber", "gtin"],
  mpn: ["manufacturerpartnumber", "mpn"],
  brand: ["brandname", "brand"],
  description: "description",
  id: "id",
  category: "categories",
  visible: "isvisible",
  product: "product",
  variant: "variant",
  image: "image",
  rule: null,
  byVariant: ["variant"],
  untracked: ["none"],
};

const V3_SKIPPED = new Set(["video", "customfield", "modifier", "bulkpricingrule"]);

interface Rule {
  row: number;
  when: Record<string, string>;
  price: string;
}

interface Group {
  row: number;
  rows: number;
  product: ProductCandidate;
  tracking: string;
  drafts: VariantDraft[];
  rules: Rule[];
  images: { url: string; thumbnail: boolean }[];
  error: string | null;
}

/**
 * BigCommerce product CSV exports, whose rows of one product are consecutive: a product row
 * followed by its variant (and image, rule) rows.
 *
 * - The legacy "Bulk Edit" export (https://support.bigcommerce.com/s/article/Importing-Exporting-Products,
 *   "Product Import/Export (v2)" field list): `Item Type` is `Product`, `SKU` or `Rule`. A SKU
 *   row's `Product Name` holds its option values (`[S]Size=Small,[CS]Color=Red`, the bracket being
 *   the option's display type), its `Product Code/SKU` and `Current Stock Level` are the
 *   variant's; a Rule row (`[S]Size=Large` in `Product Name`) changes the price of the variants it
 *   matches: `Price` `[FIXED]24.99` sets it, `[ADD]2.00` / `[REMOVE]1.00` adjust the product's.
 *   Images are `Product Image File - N` (a URL, or a file on the store's WebDAV, left out) and
 *   `Product Image URL - N`.
 * - The modern template (https://support.bigcommerce.com/s/article/Supported-Product-Fields and
 *   "Importing Complex Attributes"): `Item` is `Product`, `Variant` or `Image` (`Video`,
 *   `Custom Field`, `Modifier` and `Bulk Pricing Rule` rows are skipped; any other is reported). A Variant row's `Options` is `Type=Dropdown|Name=Size|Value=Small` (a swatch
 *   value may carry its colour: `Value=Red[#FF0000]`); Image rows give `Image URL (Import)`,
 *   the thumbnail first.
 * - `Sale Price` (when above 0) is what the product sells for, else `Price`; `Retail Price` is
 *   kept as `attributes.retailPrice`. A variant without a price sells at the product's.
 * - Stock follows `Track Inventory` / `Inventory Tracking`: the product's count when tracked by
 *   product, the variants' (and their total) when tracked by option/variant, none when untracked.
 * - Prices carry no currency: the upload's currency is used.
 */
export function bigcommerceMapper(
  layout: BigCommerceLayout,
  headers: readonly string[],
  index: ReadonlyMap<string, number>,
  defaultCurrency: string | null,
): TableMapper {
  const L = layout === "bigcommerce" ? LEGACY : V3;
  const c = platformColumns(headers, index);
  const ctx: CurrencyContext = { rowCurrency: null, defaultCurrency };
  const imageColumns = [...index.keys()].filter((n) =>
    layout === "bigcommerce"
      ? /^productimage(file|url)\d+$/.test(n)
      : n === "imageurlimport" || n === "imageurl" || n === "internalimageurlexport",
  );
  let group: Group | null = null;

  function price(cells: readonly string[], row: number) {
    for (const name of [L.salePrice, L.price]) {
      const text = c.get(cells, name);
      // Exports write 0 for "no sale price".
      if (name === L.salePrice && /^0*(\.0*)?$/.test(text)) continue;
      const cell = readPriceCell(text, c.label(name), `row ${row}`, ctx);
      if (cell) return "error" in cell ? cell : { read: cell.read, method: c.label(name) };
    }
    return null;
  }

  function stock(cells: readonly string[], row: number) {
    const name = c.pick(...L.stock);
    if (!name) return null;
    const cell = readStockCell(c.get(cells, name), c.label(name), `row ${row}`);
    return cell && "availability" in cell ? null : cell;
  }

  function startGroup(record: TableRecord): Group {
    const { cells, row } = record;
    const p = emptyCandidate();
    const group: Group = {
      row,
      rows: 1,
      product: p,
      tracking: normalise(c.get(cells, L.tracking)),
      drafts: [],
      rules: [],
      images: [],
      error: null,
    };
    const title = c.get(cells, L.title);
    if (!title) {
      group.error = `row ${row}: a ${L.product} row without a name (${c.label(L.title)})`;
      return group;
    }
    const priced = price(cells, row);
    if (priced && "error" in priced) {
      group.error = priced.error;
      return group;
    }
    const count = stock(cells, row);
    if (count && "error" in count) {
      group.error = count.error;
      return group;
    }
    setText(p, "title", title, c.label(L.title));
    const sku = c.pick(...L.sku);
    if (sku) setText(p, "sku", c.get(cells, sku), c.label(sku));
    setText(p, "description", c.get(cells, L.description), c.label(L.description));
    setFirst(p, c, cells, "brand", L.brand, (v) => v);
    setFirst(p, c, cells, "gtin", L.gtin, toGtin);
    setFirst(p, c, cells, "mpn", L.mpn, (v) => v);
    if (priced) applyPrice(p, priced.read, priced.method, ctx);
    const tracked = !L.untracked.includes(group.tracking) && !L.byVariant.includes(group.tracking);
    if (count && tracked) {
      p.quantity = count.quantity;
      p.provenance.quantity = documentSource(c.label(c.pick(...L.stock)!));
    }
    const pics = splitImages(imageColumns.map((n) => c.get(cells, n)).filter(Boolean));
    for (const url of pics.urls) group.images.push({ url, thumbnail: false });
    if (pics.relative.length > 0) p.attributes.relativeImagesLeftOut = pics.relative;
    const attrs = p.attributes;
    const put = (key: string, name: string) => {
      const v = c.get(cells, name);
      if (v) attrs[key] = v;
    };
    put("bigcommerceId", L.id);
    put("category", L.category);
    put("productType", layout === "bigcommerce" ? "producttype" : "type");
    put("optionSet", "optionset");
    const retail = readPriceCell(
      c.get(cells, L.retailPrice),
      c.label(L.retailPrice),
      `row ${row}`,
      ctx,
    );
    if (retail && "read" in retail && Number(retail.read.amount) > 0)
      attrs.retailPrice = retail.read.amount;
    if (priced?.method === c.label(L.salePrice)) {
      const regular = readPriceCell(c.get(cells, L.price), c.label(L.price), `row ${row}`, ctx);
      if (regular && "read" in regular) attrs.regularPrice = regular.read.amount;
    }
    const visible = normalise(c.get(cells, L.visible));
    if (["y", "yes", "true", "1"].includes(visible)) attrs.visible = true;
    if (["n", "no", "false", "0"].includes(visible)) attrs.visible = false;
    return group;
  }

  function addVariant(g: Group, record: TableRecord): void {
    const { cells, row } = record;
    const options =
      layout === "bigcommerce"
        ? legacyOptions(c.get(cells, L.title))
        : v3Options(c.get(cells, "options"));
    if (Object.keys(options).length === 0) {
      g.error = `row ${row}: a ${L.variant} row without option values (${c.label(layout === "bigcommerce" ? L.title : "options")}); ${layout === "bigcommerce" ? "expected [S]Size=Small,[CS]Color=Red" : "expected Type=Dropdown|Name=Size|Value=Small"}`;
      return;
    }
    const priced = price(cells, row);
    if (priced && "error" in priced) {
      g.error = priced.error;
      return;
    }
    const count = stock(cells, row);
    if (count && "error" in count) {
      g.error = count.error;
      return;
    }
    const sku = c.pick(...L.sku);
    const counted =
      !L.untracked.includes(g.tracking) &&
      !(g.tracking === "byproduct" || g.tracking === "product");
    const image = layout === "bigcommerce" ? null : absoluteUrl(c.get(cells, "variantimageurl"));
    const draft = variantDraft(
      {
        sku: (sku && c.get(cells, sku)) || null,
        title: null,
        options,
        gtin: L.gtin.map((n) => toGtin(c.get(cells, n))).find(Boolean) ?? null,
        availability: null,
        image,
        ...(count && counted ? { quantity: count.quantity } : {}),
      },
      priced?.read ?? null,
      ctx,
    );
    g.drafts.push(draft);
  }

  function addRule(g: Group, record: TableRecord): void {
    const { cells, row } = record;
    const when = legacyOptions(c.get(cells, L.title));
    const text = c.get(cells, L.price);
    if (Object.keys(when).length > 0 && text) g.rules.push({ row, when, price: text });
  }

  function finish(g: Group): DocumentRow {
    if (g.error) return { row: g.row, ok: false, error: g.error };
    const p = g.product;
    const base = p.price;
    for (const d of g.drafts) {
      for (const rule of g.rules) {
        if (!Object.entries(rule.when).every(([k, v]) => d.variant.options[k] === v)) continue;
        const m = /^\[(FIXED|ADD|REMOVE)\]\s*([\d.]+)$/i.exec(rule.price);
        const from = d.variant.price?.amount ?? base?.amount;
        if (!m || !from || !base) continue;
        const kind = m[1]!.toUpperCase();
        const amount =
          kind === "FIXED"
            ? addAmounts(m[2]!, "0")
            : addAmounts(from, kind === "ADD" ? m[2]! : `-${m[2]!}`);
        d.variant = { ...d.variant, price: { amount, currency: base.currency } };
      }
      if (!d.variant.price && !d.amountWithoutCurrency && base)
        d.variant = { ...d.variant, price: base };
    }
    const method = `rows under the ${L.product} row (${c.label(L.kind)})`;
    attachVariants(p, g.drafts, method);
    fillFromFirstVariant(p, method);
    const images = [
      ...g.images.filter((i) => i.thumbnail),
      ...g.images.filter((i) => !i.thumbnail),
    ].map((i) => i.url);
    for (const v of p.variants) if (v.image) images.push(v.image);
    p.images = [...new Set(images)];
    if (p.images.length > 0)
      p.provenance.images = documentSource(imageColumns[0] ? c.label(imageColumns[0]) : method);
    followStock(p);
    return { row: g.row, ok: true, product: p };
  }

  return {
    push(record: TableRecord): DocumentRow[] {
      const { cells, row } = record;
      const kind = normalise(c.get(cells, L.kind));
      if (kind === L.product) {
        const out = group ? [finish(group)] : [];
        group = startGroup(record);
        return out;
      }
      if (kind !== L.variant && kind !== L.image && kind !== L.rule) {
        // The template's other rows (videos, custom fields, modifiers, bulk pricing) add nothing
        // a product candidate holds.
        if (layout === "bigcommerce-v3" && V3_SKIPPED.has(kind)) return [];
        return [
          {
            row,
            ok: false,
            error: `row ${row}: ${c.label(L.kind)} is "${c.get(cells, L.kind)}"; expected ${[
              L.product,
              L.variant,
              L.image,
              L.rule,
            ]
              .filter(Boolean)
              .map((k) => `"${k === "sku" ? "SKU" : k![0]!.toUpperCase() + k!.slice(1)}"`)
              .join(", ")}`,
          },
        ];
      }
      if (!group)
        return [
          {
            row,
            ok: false,
            error: `row ${row}: a ${c.get(cells, L.kind)} row before any Product row; a product's rows follow its Product row`,
          },
        ];
      const g: Group = group;
      if (++g.rows > MAX_ROWS_PER_PRODUCT) {
        g.error ??= `row ${g.row}: product has more than ${MAX_ROWS_PER_PRODUCT} rows; is ${c.label(L.kind)} filled correctly?`;
        return [];
      }
      if (g.error) return [];
      if (kind === L.variant) addVariant(g, record);
      else if (kind === L.rule) addRule(g, record);
      else {
        const url = absoluteUrl(
          c.get(cells, "imageurlimport", "imageurl", "internalimageurlexport"),
        );
        const thumbnail = ["true", "yes", "1", "y"].includes(
          normalise(c.get(cells, "imageisthumbnail")),
        );
        if (url) g.images.push({ url, thumbnail });
      }
      return [];
    },
    end(): DocumentRow[] {
      const last = group;
      group = null;
      return last ? [finish(last)] : [];
    },
  };
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function setFirst(
  p: ProductCandidate,
  c: PlatformColumns,
  cells: readonly string[],
  key: "brand" | "gtin" | "mpn",
  names: readonly string[],
  convert: (value: string) => string | null,
): void {
  for (const name of names) {
    const value = convert(c.get(cells, name));
    if (value) return setText(p, key, value, c.label(name));
  }
}

/** "[S]Size=Small,[CS]Color=Red" (legacy SKU and Rule rows) to {Size: "Small", Color: "Red"}. */
export function legacyOptions(text: string): Record<string, string> {
  const options: Record<string, string> = {};
  for (const part of text.split(/,(?=\s*\[[A-Za-z]+\])/)) {
    const m = /^\s*\[[A-Za-z]+\]\s*([^=]+)=(.*)$/.exec(part);
    if (m && m[1]!.trim() && m[2]!.trim()) options[m[1]!.trim()] = m[2]!.trim();
  }
  return options;
}

/**
 * "Type=Dropdown|Name=Size|Value=Small" (modern Variant rows), several options one after another,
 * to {Size: "Small"}; a swatch value's colour ("Red[#FF0000]") is dropped.
 */
export function v3Options(text: string): Record<string, string> {
  const options: Record<string, string> = {};
  let name = "";
  let value = "";
  const flush = () => {
    if (name && value) options[name] = value.replace(/\s*\[[^\]]*\]\s*$/, "").trim();
    name = value = "";
  };
  for (const token of text.split(/[|\n;]/)) {
    const at = token.indexOf("=");
    if (at <= 0) continue;
    const key = token.slice(0, at).trim().toLowerCase();
    const v = token.slice(at + 1).trim();
    if (key === "type" || (key === "name" && name)) flush();
    if (key === "name") name = v;
    else if (key === "value") value = v;
  }
  flush();
  return options;
}
