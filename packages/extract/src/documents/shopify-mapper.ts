import { MAX_QUANTITY } from "@catalog/values";
import { emptyCandidate } from "../product-candidate.js";
import { absoluteUrl, detached, textOf, toGtin } from "./cell-values.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { fillFromFirstVariant } from "./generic-product.js";
import {
  attachVariants,
  documentSource,
  readPriceCell,
  variantDraft,
  type CurrencyContext,
  type VariantDraft,
} from "./price-fields.js";
import { followStock, readStockCell } from "./stock-cells.js";

/**
 * Shopify allows 2,048 variants; a "product" far beyond that is a file where every row has one
 * handle.
 */
const MAX_ROWS_PER_PRODUCT = 5000;

interface Group {
  handle: string;
  row: number;
  rows: number;
  first: string[];
  optionNames: string[];
  variants: VariantDraft[];
  rawBarcode: string | null;
  compareAt: string | null;
  images: { url: string; position: number; seq: number }[];
  error: string | null;
}

/**
 * Shopify product CSV (2019 and 2023+ layouts): consecutive rows sharing a Handle are one
 * product. The first row carries the product fields; every row may add a variant (Option
 * values / Variant SKU / Variant Price) and an image. A product is yielded when the next
 * handle starts, so only one product is ever held.
 */
export function shopifyMapper(
  headers: readonly string[],
  index: ReadonlyMap<string, number>,
  defaultCurrency: string | null,
): TableMapper {
  const col = (name: string) => index.get(name);
  const labels = new Map<string, string>();
  // Provenance strings are built once per column, not once per row.
  const label = (name: string) => {
    let text = labels.get(name);
    if (text === undefined) {
      const i = col(name);
      text = `column ${i === undefined ? name : headers[i]!.trim()}`;
      labels.set(name, text);
    }
    return text;
  };
  const c = {
    handle: col("handle"),
    title: col("title"),
    body: col("bodyhtml"),
    vendor: col("vendor"),
    type: col("type"),
    tags: col("tags"),
    published: col("published"),
    status: col("status"),
    category: col("productcategory"),
    sku: col("variantsku"),
    price: col("variantprice"),
    compareAt: col("variantcompareatprice"),
    barcode: col("variantbarcode"),
    qty: col("variantinventoryqty"),
    tracker: col("variantinventorytracker"),
    policy: col("variantinventorypolicy"),
    imageSrc: col("imagesrc"),
    imagePosition: col("imageposition"),
    variantImage: col("variantimage"),
    mpn: col("googleshoppingmpn"),
    optionName: [col("option1name"), col("option2name"), col("option3name")],
    optionValue: [col("option1value"), col("option2value"), col("option3value")],
  };
  const ctx: CurrencyContext = { rowCurrency: null, defaultCurrency };
  const seen = new Map<string, number>();
  let group: Group | null = null;
  let imageSeq = 0;

  const get = (cells: readonly string[], i: number | undefined) =>
    i === undefined ? "" : (cells[i] ?? "").trim();

  function addRow(g: Group, cells: readonly string[], row: number): void {
    g.rows++;
    if (g.error) return;
    const optionValues = c.optionValue.map((i) => get(cells, i));
    const sku = get(cells, c.sku);
    const priceText = get(cells, c.price);
    if (optionValues[0] || sku || priceText) {
      const price = readPriceCell(priceText, label("variantprice"), `row ${row}`, ctx);
      if (price && "error" in price) {
        g.error = price.error;
        return;
      }
      const options: Record<string, string> = {};
      optionValues.forEach((v, n) => {
        if (v) options[g.optionNames[n] || `Option${n + 1}`] = v;
      });
      const stock = quantity(
        get(cells, c.tracker),
        get(cells, c.qty),
        label("variantinventoryqty"),
        `row ${row}`,
      );
      if (stock && "error" in stock) {
        g.error = stock.error;
        return;
      }
      const barcode = get(cells, c.barcode);
      if (g.variants.length === 0) {
        g.rawBarcode = barcode || null;
        const compareAt = readPriceCell(get(cells, c.compareAt), "", "", ctx);
        g.compareAt = compareAt && "read" in compareAt ? compareAt.read.amount : null;
      }
      g.variants.push(
        variantDraft(
          {
            sku: sku || null,
            title: optionValues.filter(Boolean).join(" / ") || null,
            options,
            gtin: toGtin(barcode),
            availability: availability(
              get(cells, c.tracker),
              get(cells, c.qty),
              get(cells, c.policy),
            ),
            image: absoluteUrl(get(cells, c.variantImage)),
            ...(stock ? { quantity: stock.quantity } : {}),
          },
          price?.read ?? null,
          ctx,
        ),
      );
    }
    const image = absoluteUrl(get(cells, c.imageSrc));
    if (image) {
      const position = Number.parseInt(get(cells, c.imagePosition), 10);
      g.images.push({
        url: image,
        position: Number.isFinite(position) ? position : Number.MAX_SAFE_INTEGER,
        seq: imageSeq++,
      });
    }
  }

  function startGroup(handle: string, cells: string[], row: number): Group {
    const g: Group = {
      handle,
      row,
      rows: 0,
      first: cells,
      optionNames: c.optionName.map((i) => get(cells, i)),
      variants: [],
      rawBarcode: null,
      compareAt: null,
      images: [],
      error: null,
    };
    const earlier = seen.get(handle);
    if (earlier !== undefined) {
      g.error = `row ${row}: the rows of product "${handle}" are not together (it also starts at row ${earlier}); keep each handle's rows consecutive`;
    } else {
      seen.set(detached(handle), row);
    }
    return g;
  }

  function finish(g: Group): DocumentRow {
    if (g.error) return { row: g.row, ok: false, error: g.error };
    const cells = g.first;
    const title = get(cells, c.title);
    if (!title)
      return {
        row: g.row,
        ok: false,
        error: `row ${g.row}: no title (expected a Title/Name column)`,
      };
    const product = emptyCandidate();
    const set = (key: "title" | "description" | "brand" | "mpn", value: string, column: string) => {
      if (value) {
        product[key] = value;
        product.provenance[key] = documentSource(label(column));
      }
    };
    set("title", title, "title");
    set("description", get(cells, c.body), "bodyhtml");
    set("brand", get(cells, c.vendor), "vendor");
    set("mpn", get(cells, c.mpn), "googleshoppingmpn");
    const images = [...g.images]
      .sort((a, b) => a.position - b.position || a.seq - b.seq)
      .map((i) => i.url);
    for (const v of g.variants) if (v.variant.image) images.push(v.variant.image);
    product.images = [...new Set(images)];
    if (product.images.length > 0) product.provenance.images = documentSource(label("imagesrc"));

    attachVariants(product, g.variants, `rows grouped by ${label("handle")}`);
    const first = g.variants[0]?.variant;
    if (first?.sku) {
      product.sku = first.sku;
      product.provenance.sku = documentSource(label("variantsku"));
    }
    if (first?.price) {
      product.price = first.price;
      product.provenance.price = documentSource(label("variantprice"));
    }
    if (first?.gtin) {
      product.gtin = first.gtin;
      product.provenance.gtin = documentSource(label("variantbarcode"));
    }
    fillFromFirstVariant(product, label("variantinventoryqty"));
    followStock(product);

    const attrs = product.attributes;
    attrs.handle = g.handle;
    const type = get(cells, c.type);
    if (type) attrs.productType = type;
    const category = get(cells, c.category);
    if (category) attrs.category = category;
    const tags = get(cells, c.tags)
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    if (tags.length > 0) attrs.tags = tags;
    const status = get(cells, c.status).toLowerCase();
    if (status) attrs.status = status;
    const published = get(cells, c.published).toLowerCase();
    if (published === "true" || published === "false") attrs.published = published === "true";
    if (g.compareAt) attrs.compareAtPrice = g.compareAt;
    if (g.rawBarcode && !product.gtin) attrs.barcode = g.rawBarcode;
    return { row: g.row, ok: true, product };
  }

  return {
    push(record: TableRecord): DocumentRow[] {
      const handle = get(record.cells, c.handle);
      if (!handle) {
        return [
          {
            row: record.row,
            ok: false,
            error: `row ${record.row}: no Handle; every row of a Shopify product CSV names its product's handle`,
          },
        ];
      }
      const out: DocumentRow[] = [];
      if (group && group.handle !== handle) {
        out.push(finish(group));
        group = null;
      }
      group ??= startGroup(handle, record.cells, record.row);
      if (group.rows >= MAX_ROWS_PER_PRODUCT) {
        if (!group.error)
          group.error = `row ${group.row}: product "${handle}" has more than ${MAX_ROWS_PER_PRODUCT} rows; is the Handle column filled correctly?`;
        group.rows++;
        return out;
      }
      addRow(group, record.cells, record.row);
      return out;
    },
    end(): DocumentRow[] {
      const last = group;
      group = null;
      return last ? [finish(last)] : [];
    },
  };
}

/**
 * A tracked variant's Variant Inventory Qty (untracked ones have no count: sold regardless).
 * Shopify lets a count go below 0 when it sells on (an oversold variant): none on hand, 0.
 */
function quantity(
  tracker: string,
  qty: string,
  method: string,
  where: string,
): { quantity: number } | { error: string } | null {
  if (!tracker) return null;
  const oversold = /^-\d+$/.test(qty);
  const cell = readStockCell(oversold ? "0" : qty, method, where);
  if (cell && "availability" in cell)
    return {
      error: `${where}: cannot read the stock "${qty}" (${method}): a stock is a whole number from 0 to ${MAX_QUANTITY}`,
    };
  return cell;
}

/**
 * Only tracked inventory says anything: untracked variants ("0" with no tracker) are sold
 * regardless.
 */
function availability(tracker: string, qty: string, policy: string): string | null {
  if (!tracker || textOf(qty) === null) return null;
  const n = Number(qty);
  if (!Number.isFinite(n)) return null;
  if (n > 0) return "InStock";
  return policy.toLowerCase() === "continue" ? "BackOrder" : "OutOfStock";
}
