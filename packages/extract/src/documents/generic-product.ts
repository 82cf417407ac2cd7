import { emptyCandidate, type ProductCandidate } from "../product-candidate.js";
import {
  absoluteUrl,
  currencyCode,
  imageUrls,
  isRecord,
  textOf,
  toAvailability,
  toGtin,
} from "./cell-values.js";
import type { GenericField } from "./column-names.js";
import {
  applyPrice,
  attachVariants,
  documentSource,
  readPriceCell,
  type CurrencyContext,
  type VariantDraft,
} from "./price-fields.js";
import { applyStock, followStock, quantityFromVariants, readStockHits } from "./stock-cells.js";

/** One value found for a field, with the provenance method ("column Price", "key price.amount"). */
export interface FieldHit {
  value: unknown;
  method: string;
}

/** Field values of one row or object, in order of preference. */
export interface FieldReader {
  hits(field: GenericField): readonly FieldHit[];
}

export interface BuildContext {
  /** "row 7", "item 3", "line 4": how messages point at the source. */
  label: string;
  /** How to say where a title is expected, for the message when there is none. */
  titleHint: string;
  defaultCurrency: string | null;
  attributes?: Record<string, unknown>;
  /** Variants read by the caller (JSON objects carry them nested). */
  variants?: (
    ctx: CurrencyContext,
  ) => { drafts: VariantDraft[]; method: string } | { error: string } | null;
}

export type BuildResult = { ok: true; product: ProductCandidate } | { ok: false; error: string };

/** A product from recognised columns or keys: generic spreadsheets, JSON and NDJSON. */
export function buildGenericProduct(reader: FieldReader, ctx: BuildContext): BuildResult {
  const product = emptyCandidate();
  const first = <T>(
    field: GenericField,
    convert: (value: unknown) => T | null,
  ): { value: T; method: string } | null => {
    for (const hit of reader.hits(field)) {
      const value = convert(hit.value);
      if (value !== null) return { value, method: hit.method };
    }
    return null;
  };

  const title = first("title", textOf);
  if (!title) return { ok: false, error: `${ctx.label}: no title (${ctx.titleHint})` };
  product.title = title.value;
  product.provenance.title = documentSource(title.method);

  const currencyHit = first("currency", currencyCode);
  const currency: CurrencyContext = {
    rowCurrency: currencyHit?.value ?? null,
    defaultCurrency: ctx.defaultCurrency,
  };
  // A sale price that is set is what the item sells for; else the price, else the list price.
  for (const field of ["salePrice", "price", "regularPrice"] as const) {
    const cell = readPriceHits(reader.hits(field), ctx.label, currency);
    if (!cell) continue;
    if ("error" in cell) return { ok: false, error: cell.error };
    applyPrice(product, cell.read, cell.method, currency);
    break;
  }

  const set = <K extends "sku" | "brand" | "mpn" | "description" | "availability" | "sourceUrl">(
    key: K,
    field: GenericField,
    convert: (value: unknown) => string | null,
  ) => {
    const hit = first(field, convert);
    if (hit) {
      product[key] = hit.value;
      product.provenance[key] = documentSource(hit.method);
    }
  };
  set("sku", "sku", textOf);
  set("brand", "brand", (v) => textOf(isRecord(v) ? v.name : v));
  set("mpn", "mpn", textOf);
  set("description", "description", textOf);
  set("availability", "availability", toAvailability);
  set("sourceUrl", "sourceUrl", absoluteUrl);
  const stock = readStockHits(reader.hits("quantity"), ctx.label);
  if (stock && "error" in stock) return { ok: false, error: stock.error };
  if (stock) applyStock(product, stock, stock.method);

  const gtin = first("gtin", toGtin);
  if (gtin) {
    product.gtin = gtin.value;
    product.provenance.gtin = documentSource(gtin.method);
  } else {
    const raw = first("gtin", textOf);
    if (raw) product.attributes.barcode = raw.value;
  }

  for (const hit of reader.hits("images")) {
    for (const url of imageUrls(hit.value)) {
      if (!product.images.includes(url)) product.images.push(url);
      product.provenance.images ??= documentSource(hit.method);
    }
  }

  if (ctx.attributes) Object.assign(product.attributes, ctx.attributes);
  const variants = ctx.variants?.(currency);
  if (variants && "error" in variants) return { ok: false, error: variants.error };
  if (variants) {
    attachVariants(product, variants.drafts, variants.method);
    fillFromFirstVariant(product, variants.method);
  }
  followStock(product);
  return { ok: true, product };
}

function readPriceHits(hits: readonly FieldHit[], label: string, ctx: CurrencyContext) {
  for (const hit of hits) {
    let value = hit.value;
    let method = hit.method;
    let hitCtx = ctx;
    // Nested money ({amount, currency}, schema.org offers {price, priceCurrency}).
    const nested = isRecord(value)
      ? value
      : Array.isArray(value) && isRecord(value[0])
        ? value[0]
        : null;
    if (nested) {
      const amountKey = ["amount", "value", "price"].find(
        (k) => nested[k] !== undefined && nested[k] !== null,
      );
      if (!amountKey) continue;
      value = nested[amountKey];
      method = `${method}.${amountKey}`;
      const code = currencyCode(nested.currency ?? nested.currencyCode ?? nested.priceCurrency);
      if (code !== null) hitCtx = { ...ctx, rowCurrency: code };
    }
    const cell = readPriceCell(value, method, label, hitCtx);
    if (cell && "error" in cell) return cell;
    if (cell)
      return { read: { ...cell.read, currency: cell.read.currency ?? hitCtx.rowCurrency }, method };
  }
  return null;
}

/**
 * Product-level sku/price/gtin/availability default to the first variant's; the product's
 * quantity to the variants' total when every variant states one.
 */
export function fillFromFirstVariant(product: ProductCandidate, method: string): void {
  const v = product.variants[0];
  if (!v) return;
  if (product.sku === null && v.sku !== null) {
    product.sku = v.sku;
    product.provenance.sku = documentSource(method);
  }
  if (product.price === null && v.price !== null) {
    product.price = v.price;
    product.provenance.price = documentSource(method);
  }
  if (product.gtin === null && v.gtin !== null) {
    product.gtin = v.gtin;
    product.provenance.gtin = documentSource(method);
  }
  quantityFromVariants(product, method);
  if (product.availability === null) {
    const inStock =
      product.variants.find((x) => x.availability === "InStock") ??
      product.variants.find((x) => x.availability !== null);
    if (inStock) {
      product.availability = inStock.availability;
      product.provenance.availability = documentSource(method);
    }
  }
}
