import { emptyCandidate, type ProductCandidate } from "../product-candidate.js";
import { detached, toGtin } from "./cell-values.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { fillFromFirstVariant } from "./generic-product.js";
import { platformColumns, setText, splitImages } from "./platform-columns.js";
import {
  applyPrice,
  attachVariants,
  documentSource,
  readPriceCell,
  variantDraft,
  type CurrencyContext,
} from "./price-fields.js";
import { followStock, readStockCell } from "./stock-cells.js";

/**
 * Rows held while they wait for the rows they belong with; past this the oldest are let go, so
 * memory stays bounded.
 */
const MAX_WAITING_ROWS = 50_000;

/** What a child (simple) row adds to the variant its configurable names. */
interface ChildRow {
  row: number;
  title: string | null;
  read: Parameters<typeof variantDraft>[1];
  quantity: number | null;
  availability: string | null;
  image: string | null;
  gtin: string | null;
}

interface Configurable {
  row: number;
  product: ProductCandidate;
  /** Child SKUs in the order configurable_variations lists them, with their option values. */
  variations: { sku: string; options: Record<string, string> }[];
  children: Map<string, ChildRow>;
}

/**
 * Magento 2 native product import/export (System > Data Transfer > Import, entity "Products",
 * the `catalog_product` CSV), following Adobe's "Product attributes reference"
 * (https://experienceleague.adobe.com/en/docs/commerce-admin/systems/data-transfer/data-attributes-product)
 * and "Import" guide (.../data-transfer/import/data-import):
 *
 * - One row per SKU and store view. Rows with a `store_view_code` override the default (empty
 *   code) row's values for one store view (translations, store prices): they are not products
 *   and are skipped; the catalog keeps the default (admin) values.
 * - A `configurable` row lists its variations in `configurable_variations`
 *   (`sku=MH01-XS-Black,size=XS,color=Black|sku=...`) and their labels in
 *   `configurable_variation_labels` (`size=Size,color=Color`). Each listed SKU becomes a variant
 *   with those option values; the child's own row (a `simple` or `virtual` product, before or
 *   after its parent) gives its price (`special_price` when set, else `price`), `qty`,
 *   `is_in_stock` and image. A child row that is "Not Visible Individually" is only a variant;
 *   a child that is visible on its own is also a product.
 * - `base_image`/`additional_images` are paths relative to the store's media folder unless they
 *   are URLs: URLs are kept; paths cannot be fetched without the store's address, so they are
 *   left out and listed in `attributes.relativeImagesLeftOut`.
 * - `additional_attributes` (`brand=Acme,color=Red`) become attributes; `brand`/`manufacturer`,
 *   `gtin`/`ean`/`upc` and `mpn` fill those fields.
 * - Prices carry no currency (the store's base currency): the upload's currency is used.
 */
export function magentoMapper(
  headers: readonly string[],
  index: ReadonlyMap<string, number>,
  defaultCurrency: string | null,
): TableMapper {
  const c = platformColumns(headers, index);
  const ctx: CurrencyContext = { rowCurrency: null, defaultCurrency };
  const configurables = new Map<Configurable, null>();
  /** Child SKU to the configurable that lists it. */
  const claimedBy = new Map<string, Configurable>();
  /** Not-visible rows not (yet) claimed by a configurable: they may be a later one's children. */
  const waiting = new Map<string, { row: number; product: ProductCandidate; child: ChildRow }>();
  let held = 0;

  function price(cells: readonly string[], row: number) {
    for (const name of ["specialprice", "price"]) {
      const cell = readPriceCell(c.get(cells, name), c.label(name), `row ${row}`, ctx);
      if (cell) return "error" in cell ? cell : { read: cell.read, method: c.label(name) };
    }
    return null;
  }

  function stock(cells: readonly string[], row: number) {
    const cell = readStockCell(c.get(cells, "qty"), c.label("qty"), `row ${row}`);
    if (cell && "error" in cell) return cell;
    const inStock = c.get(cells, "isinstock");
    return {
      quantity: cell && "quantity" in cell ? cell.quantity : null,
      availability: inStock === "0" ? "OutOfStock" : inStock === "1" ? "InStock" : null,
    };
  }

  function images(cells: readonly string[]) {
    const paths = [c.get(cells, "baseimage")];
    for (const p of c.get(cells, "additionalimages").split(",")) paths.push(p.trim());
    return splitImages(paths.filter(Boolean));
  }

  function extraAttributes(cells: readonly string[]): Record<string, string> {
    const out: Record<string, string> = {};
    // Values may hold commas; a pair starts only where "code=" follows a comma.
    for (const pair of c.get(cells, "additionalattributes").split(/,(?=\s*[a-z0-9_]+=)/i)) {
      const at = pair.indexOf("=");
      if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
    return out;
  }

  function product(record: TableRecord): ProductCandidate | DocumentRow {
    const { cells, row } = record;
    const p = emptyCandidate();
    const title = c.get(cells, "name");
    if (!title)
      return {
        row,
        ok: false,
        error: `row ${row}: no name (column name) for SKU "${c.get(cells, "sku")}"`,
      };
    const priced = price(cells, row);
    if (priced && "error" in priced) return { row, ok: false, error: priced.error };
    const stocked = stock(cells, row);
    if ("error" in stocked) return { row, ok: false, error: stocked.error };
    setText(p, "title", title, c.label("name"));
    setText(p, "sku", c.get(cells, "sku"), c.label("sku"));
    const description =
      c.pick("description") && c.get(cells, "description") ? "description" : "shortdescription";
    setText(p, "description", c.get(cells, description), c.label(description));
    if (priced) applyPrice(p, priced.read, priced.method, ctx);
    if (stocked.quantity !== null) {
      p.quantity = stocked.quantity;
      p.provenance.quantity = documentSource(c.label("qty"));
    }
    setText(p, "availability", stocked.availability, c.label("isinstock"));
    const pics = images(cells);
    p.images = pics.urls;
    if (pics.urls.length > 0) p.provenance.images = documentSource(c.label("baseimage"));

    const attrs = p.attributes;
    const extra = extraAttributes(cells);
    const method = c.label("additionalattributes");
    setText(p, "brand", extra.brand ?? extra.manufacturer ?? null, method);
    setText(p, "gtin", toGtin(extra.gtin ?? extra.ean ?? extra.upc), method);
    setText(p, "mpn", extra.mpn ?? null, method);
    if (Object.keys(extra).length > 0) attrs.additionalAttributes = extra;
    if (pics.relative.length > 0) attrs.relativeImagesLeftOut = pics.relative;
    attrs.productType = c.get(cells, "producttype").toLowerCase();
    const put = (key: string, name: string) => {
      const v = c.get(cells, name);
      if (v) attrs[key] = v;
    };
    put("categories", "categories");
    put("visibility", "visibility");
    put("urlKey", "urlkey");
    put("attributeSet", "attributesetcode");
    if (priced?.method === c.label("specialprice")) put("regularPrice", "price");
    return p;
  }

  function childOf(record: TableRecord, p: ProductCandidate): ChildRow {
    const { cells, row } = record;
    const priced = price(cells, row);
    const stocked = stock(cells, row);
    return {
      row,
      title: p.title,
      read: priced && !("error" in priced) ? priced.read : null,
      quantity: "error" in stocked ? null : stocked.quantity,
      availability: "error" in stocked ? null : stocked.availability,
      image: p.images[0] ?? null,
      gtin: p.gtin,
    };
  }

  function finish(conf: Configurable): DocumentRow {
    configurables.delete(conf);
    held -= 1 + conf.children.size;
    const parentPrice = conf.product.price;
    const drafts = conf.variations.map(({ sku, options }) => {
      claimedBy.delete(sku);
      const child = conf.children.get(sku);
      const draft = variantDraft(
        {
          sku,
          title: child?.title ?? null,
          options,
          gtin: child?.gtin ?? null,
          availability: child?.availability ?? null,
          image: child?.image ?? null,
          ...(child?.quantity !== null && child?.quantity !== undefined
            ? { quantity: child.quantity }
            : {}),
        },
        child?.read ?? null,
        ctx,
      );
      // A child without a price of its own sells at the configurable's.
      if (!draft.variant.price && !draft.amountWithoutCurrency && parentPrice)
        draft.variant = { ...draft.variant, price: parentPrice };
      return draft;
    });
    const method = c.label("configurablevariations");
    attachVariants(conf.product, drafts, method);
    for (const v of conf.product.variants)
      if (v.image && !conf.product.images.includes(v.image)) conf.product.images.push(v.image);
    // A configurable's own qty is not its stock: its variants' total is.
    conf.product.quantity = null;
    delete conf.product.provenance.quantity;
    fillFromFirstVariant(conf.product, method);
    followStock(conf.product);
    return { row: conf.row, ok: true, product: conf.product };
  }

  /** Lets the oldest held rows go when too many are held. */
  function relieve(out: DocumentRow[]): void {
    for (const [sku, w] of waiting) {
      if (held <= MAX_WAITING_ROWS) return;
      waiting.delete(sku);
      held--;
      out.push({ row: w.row, ok: true, product: w.product });
    }
    for (const conf of configurables.keys()) {
      if (held <= MAX_WAITING_ROWS) return;
      out.push(finish(conf));
    }
  }

  return {
    push(record: TableRecord): DocumentRow[] {
      const { cells, row } = record;
      const sku = c.get(cells, "sku");
      if (!sku)
        return [
          {
            row,
            ok: false,
            error: `row ${row}: no SKU (column sku); every Magento product row names its SKU`,
          },
        ];
      if (c.get(cells, "storeviewcode")) return [];
      const built = product(record);
      if (!("title" in built)) return [built];
      const p = detached(built);
      const out: DocumentRow[] = [];
      const type = c.get(cells, "producttype").toLowerCase();
      if (type === "configurable") {
        const conf: Configurable = {
          row,
          product: p,
          variations: variationsOf(
            c.get(cells, "configurablevariations"),
            labelsOf(c.get(cells, "configurablevariationlabels")),
          ),
          children: new Map(),
        };
        configurables.set(conf, null);
        held++;
        for (const v of conf.variations) {
          const early = waiting.get(v.sku);
          if (early) {
            waiting.delete(v.sku);
            conf.children.set(v.sku, early.child);
          } else {
            claimedBy.set(v.sku, conf);
          }
        }
        if (conf.variations.every((v) => conf.children.has(v.sku))) out.push(finish(conf));
        relieve(out);
        return out;
      }
      const child = detached(childOf(record, p));
      const conf = claimedBy.get(sku);
      const visible = !/not visible/i.test(c.get(cells, "visibility"));
      if (conf) {
        claimedBy.delete(sku);
        conf.children.set(sku, child);
        held++;
        if (conf.variations.every((v) => conf.children.has(v.sku))) out.push(finish(conf));
        if (visible) out.push({ row, ok: true, product: p });
        return out;
      }
      if (visible || !c.pick("configurablevariations")) return [{ row, ok: true, product: p }];
      waiting.set(detached(sku), { row, product: p, child });
      held++;
      relieve(out);
      return out;
    },
    end(): DocumentRow[] {
      const out = [...configurables.keys()].map(finish);
      // Not-visible rows no configurable claimed are products of their own (sold in a bundle or
      // grouped product, or the configurable is in another file).
      for (const w of waiting.values()) out.push({ row: w.row, ok: true, product: w.product });
      waiting.clear();
      return out.sort((a, b) => a.row - b.row);
    },
  };
}

/** "size=Size,color=Color" to {size: "Size", color: "Color"}. */
function labelsOf(text: string): Map<string, string> {
  const labels = new Map<string, string>();
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=");
    if (at > 0) labels.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return labels;
}

/** "sku=A,size=XS,color=Black|sku=B,..." to the child SKUs with labelled option values. */
function variationsOf(
  text: string,
  labels: ReadonlyMap<string, string>,
): { sku: string; options: Record<string, string> }[] {
  const out: { sku: string; options: Record<string, string> }[] = [];
  for (const entry of text.split("|")) {
    let sku = "";
    const options: Record<string, string> = {};
    for (const pair of entry.split(",")) {
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const code = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (code === "sku") sku = value;
      else if (value) options[labels.get(code) || code] = value;
    }
    if (sku && !out.some((v) => v.sku === sku)) out.push({ sku, options });
  }
  return out;
}
