// The mapping panel's logic: catalog fields in a merchant's words, the panel's draft of a
// mapping and what is wrong with it before it is sent, and a previewed product's cells as text.
import type { ColumnMapping, ColumnReading, MappedField } from "../../api/column-types";
import { countOf } from "../../ui/format";

/** The select's options, in the order a merchant looks for them. */
export const FIELD_CHOICES: { field: MappedField; label: string }[] = [
  { field: "title", label: "Product name" },
  { field: "sku", label: "SKU" },
  { field: "price", label: "Price" },
  { field: "salePrice", label: "Sale price" },
  { field: "regularPrice", label: "Regular price (before a sale)" },
  { field: "currency", label: "Currency" },
  { field: "quantity", label: "Stock quantity" },
  { field: "availability", label: "Availability (in stock or not)" },
  { field: "brand", label: "Brand" },
  { field: "gtin", label: "Barcode (GTIN/EAN/UPC)" },
  { field: "mpn", label: "Manufacturer part number (MPN)" },
  { field: "images", label: "Images" },
  { field: "description", label: "Description" },
  { field: "sourceUrl", label: "Product page address" },
  { field: "parent", label: "Parent SKU (variant of)" },
  { field: "option", label: "Option (e.g. Size)" },
  { field: "attribute", label: "Attribute" },
  { field: "ignore", label: "Don't import" },
];

const LABELS = new Map(FIELD_CHOICES.map((c) => [c.field, c.label]));

export function fieldLabel(field: MappedField): string {
  return LABELS.get(field) ?? field;
}

/** Fields one column at most may give (options, attributes, images and "ignore" may repeat). */
const SINGLE_VALUE = new Set<MappedField>([
  "title",
  "sku",
  "price",
  "salePrice",
  "regularPrice",
  "currency",
  "quantity",
  "brand",
  "gtin",
  "mpn",
  "description",
  "availability",
  "sourceUrl",
  "parent",
]);

/** Fields whose column needs a name (the option's or attribute's; the header when left empty). */
export function takesName(field: MappedField): boolean {
  return field === "option" || field === "attribute";
}

/** One line of the panel: the column, the field chosen, the option's or attribute's name. */
export interface DraftColumn {
  column: string;
  field: MappedField;
  name: string;
}

/** The panel's first state: the reading the service answered (recognised, template or automatic). */
export function draftFrom(columns: readonly ColumnReading[]): DraftColumn[] {
  return columns.map((c) => ({ column: c.column, field: c.field, name: c.name ?? "" }));
}

/** The mapping sent with the upload: every column, names only where they apply and are given. */
export function toMapping(draft: readonly DraftColumn[]): ColumnMapping {
  return {
    columns: draft.map((d) => {
      const name = d.name.trim();
      return takesName(d.field) && name
        ? { column: d.column, field: d.field, name }
        : { column: d.column, field: d.field };
    }),
  };
}

/**
 * What stops this mapping from being imported, in words, or an empty list: no product name
 * column, or a single-value field chosen for two columns.
 */
export function mappingProblems(draft: readonly DraftColumn[]): string[] {
  const problems: string[] = [];
  if (!draft.some((d) => d.field === "title"))
    problems.push("Choose the column that holds the product name (“Product name”).");
  const byField = new Map<MappedField, string[]>();
  for (const d of draft) {
    if (!SINGLE_VALUE.has(d.field)) continue;
    byField.set(d.field, [...(byField.get(d.field) ?? []), d.column]);
  }
  for (const [field, columns] of byField) {
    if (columns.length < 2) continue;
    const names = columns.map((c) => `“${c}”`);
    const list = `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
    problems.push(
      `“${fieldLabel(field)}” is chosen for ${list}: choose it for one column only, “Don't import” for the others.`,
    );
  }
  return problems;
}

/** A suggested template name: the file's name without its extension. */
export function templateNameFor(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, "").trim();
  return (base || "My columns").slice(0, 80);
}

/** Tables (CSV, TSV, XLSX) have columns to map; JSON and NDJSON files are not asked about. */
export function isTableFile(name: string): boolean {
  return /\.(csv|tsv|xlsx)$/i.test(name);
}

/** CSV and TSV are read from their first part only; an XLSX must be sent whole. */
export const COLUMNS_SAMPLE_BYTES = 256 * 1024;

export function columnsSample<T extends Blob & { name: string }>(file: T): Blob {
  return /\.(csv|tsv)$/i.test(file.name) && file.size > COLUMNS_SAMPLE_BYTES
    ? file.slice(0, COLUMNS_SAMPLE_BYTES)
    : file;
}

interface Money {
  amount: string;
  currency: string;
}

/** What the preview's cells read of a product (the columns answer's product fits it). */
export interface PreviewCells {
  price?: Money | null;
  quantity?: number | null;
  variants?: { price?: Money | null; quantity?: number | null }[];
}

const moneyText = (m: Money | null | undefined) => (m ? `${m.amount} ${m.currency}` : null);

/**
 * The preview's price: "19.99 EUR", the variants' when the product has none ("from 10.00 EUR"
 * when they differ), or "—" (no price, or one without a currency, which the catalog leaves out).
 */
export function previewPrice(product: PreviewCells): string {
  const own = moneyText(product.price);
  if (own) return own;
  const variantPrices = (product.variants ?? [])
    .map((v) => v.price)
    .filter((p): p is Money => Boolean(p))
    .sort((a, b) => Number(a.amount) - Number(b.amount))
    .map((p) => moneyText(p)!);
  if (variantPrices.length === 0) return "—";
  const distinct = [...new Set(variantPrices)];
  return distinct.length === 1 ? distinct[0]! : `from ${distinct[0]!}`;
}

/** "12", the variants' sum when only they say, "unknown" when the file does not say. */
export function previewStock(product: PreviewCells): string {
  if (typeof product.quantity === "number") return product.quantity.toLocaleString("en");
  const known = (product.variants ?? [])
    .map((v) => v.quantity)
    .filter((q): q is number => typeof q === "number");
  if (known.length === 0) return "unknown";
  return known.reduce((a, b) => a + b, 0).toLocaleString("en");
}

/** "3 variants", "1 variant", "none". */
export function previewVariants(product: PreviewCells): string {
  const n = product.variants?.length ?? 0;
  return n === 0 ? "none" : countOf(n, "variant");
}
