import {
  absoluteUrl,
  currencyCode,
  imageUrls,
  isRecord,
  textOf,
  toAvailability,
  toGtin,
  type PriceRead,
} from "./cell-values.js";
import { recogniseKey, type GenericField } from "./column-names.js";
import type { DocumentRow } from "./document-row.js";
import { buildGenericProduct, type FieldHit, type FieldReader } from "./generic-product.js";
import {
  readPriceCell,
  variantDraft,
  type CurrencyContext,
  type VariantDraft,
} from "./price-fields.js";
import { readStockHits } from "./stock-cells.js";

/** Keys of our own API's product (and of common exports) that are bookkeeping, not product data. */
const IGNORED_KEYS = new Set([
  "id",
  "createdat",
  "updatedat",
  "version",
  "source",
  "listings",
  "options",
  "attributes",
]);

interface ObjectFields {
  reader: FieldReader;
  /** Scalar values under keys that are not recognised: kept as attributes. */
  extras: Record<string, unknown>;
}

/** Recognises an object's keys the same way as spreadsheet headers ("productName", "image_url"). */
function readObject(obj: Record<string, unknown>, path: string): ObjectFields {
  const found = new Map<GenericField, { hit: FieldHit; rank: number }[]>();
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    const { normalised, match } = recogniseKey(key);
    if (match) {
      const list = found.get(match.field) ?? [];
      list.push({ hit: { value, method: `key ${path}${key}` }, rank: match.rank });
      found.set(match.field, list);
    } else if (!IGNORED_KEYS.has(normalised) && value !== null && typeof value !== "object") {
      extras[key] = value;
    }
  }
  for (const list of found.values()) list.sort((a, b) => a.rank - b.rank);
  return { reader: { hits: (field) => found.get(field)?.map((x) => x.hit) ?? [] }, extras };
}

/** One JSON array item or NDJSON line as a product. `label` is "item 3" or "line 3". */
export function jsonProductRow(
  value: unknown,
  row: number,
  label: string,
  defaultCurrency: string | null,
): DocumentRow {
  if (!isRecord(value)) {
    return {
      row,
      ok: false,
      error: `${label}: expected a product object, found ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}`,
    };
  }
  const { reader, extras } = readObject(value, "");
  const attributes = isRecord(value.attributes) ? { ...value.attributes, ...extras } : extras;
  const optionNames = optionNamesOf(value.options);
  const result = buildGenericProduct(reader, {
    label,
    titleHint: 'expected a "title" or "name" key',
    defaultCurrency,
    attributes,
    variants: (ctx) => readVariants(reader.hits("variants")[0]?.value, optionNames, label, ctx),
  });
  return result.ok
    ? { row, ok: true, product: result.product }
    : { row, ok: false, error: result.error };
}

/** Shopify's products.json names options on the product (`options: [{name: "Size"}]`). */
function optionNamesOf(options: unknown): string[] {
  if (!Array.isArray(options)) return [];
  return options.map((o, i) => textOf(isRecord(o) ? o.name : o) ?? `Option ${i + 1}`);
}

function readVariants(value: unknown, optionNames: string[], label: string, ctx: CurrencyContext) {
  if (!Array.isArray(value) || value.length === 0) return null;
  const drafts: VariantDraft[] = [];
  for (const [i, item] of value.entries()) {
    if (!isRecord(item)) continue;
    const { reader } = readObject(item, `variants[${i}].`);
    const first = (field: GenericField, convert: (v: unknown) => string | null) => {
      for (const hit of reader.hits(field)) {
        const v = convert(hit.value);
        if (v !== null) return v;
      }
      return null;
    };
    let price: Extract<PriceRead, { kind: "ok" }> | null = null;
    for (const field of ["salePrice", "price", "regularPrice"] as const) {
      const hit = reader
        .hits(field)
        .find((h) => h.value !== null && h.value !== undefined && h.value !== "");
      if (!hit) continue;
      const money = isRecord(hit.value) ? hit.value : null;
      const code = money ? currencyCode(money.currency ?? money.currencyCode) : null;
      const cellCtx = code !== null ? { ...ctx, rowCurrency: code } : ctx;
      const cell = readPriceCell(
        money ? (money.amount ?? money.value) : hit.value,
        hit.method,
        label,
        cellCtx,
      );
      if (cell && "error" in cell) return { error: cell.error };
      if (cell) {
        price = { ...cell.read, currency: cell.read.currency ?? cellCtx.rowCurrency };
        break;
      }
    }
    const stock = readStockHits(reader.hits("quantity"), label);
    if (stock && "error" in stock) return { error: stock.error };
    const available =
      typeof item.available === "boolean" ? (item.available ? "InStock" : "OutOfStock") : null;
    drafts.push(
      variantDraft(
        {
          sku: first("sku", textOf),
          title: first("title", textOf),
          options: variantOptions(item, optionNames),
          gtin: first("gtin", toGtin),
          availability:
            first("availability", toAvailability) ??
            available ??
            (stock && "availability" in stock ? stock.availability : null),
          image:
            imageUrls(item.image ?? item.imageUrl ?? item.image_url ?? item.featured_image)[0] ??
            absoluteUrl(item.image_src),
          ...(stock && "quantity" in stock ? { quantity: stock.quantity } : {}),
        },
        price,
        ctx,
      ),
    );
  }
  return drafts.length > 0 ? { drafts, method: "key variants" } : null;
}

function variantOptions(
  item: Record<string, unknown>,
  optionNames: string[],
): Record<string, string> {
  const options: Record<string, string> = {};
  const source = isRecord(item.options)
    ? item.options
    : isRecord(item.attributes)
      ? item.attributes
      : null;
  if (source) {
    for (const [k, v] of Object.entries(source)) {
      const t = textOf(v);
      if (t !== null) options[k] = t;
    }
    return options;
  }
  for (let n = 1; n <= 3; n++) {
    const t = textOf(item[`option${n}`]);
    if (t !== null) options[optionNames[n - 1] ?? `Option ${n}`] = t;
  }
  return options;
}
