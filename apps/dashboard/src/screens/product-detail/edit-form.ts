// The product edit form's logic: the form's values from a product, what is wrong with them, the
// patch of what changed, and a 422's field.
import type { ProductDetail, ProductPatch } from "@catalog/gateway/api-types";
import { editableDescription } from "../../ui/description";
import { quantityText, readQuantity } from "../../ui/stock";

export interface FormState {
  title: string;
  sku: string;
  description: string;
  amount: string;
  currency: string;
  brand: string;
  gtin: string;
  mpn: string;
  availability: string;
  /** Units in stock; empty when unknown. */
  quantity: string;
  /** Each variant's stock, in the product's variant order; empty when unknown. */
  variantQuantities: string[];
  images: string[];
}
export type Errors = Partial<Record<keyof FormState | "form", string>>;

export function toForm(p: ProductDetail): FormState {
  return {
    title: p.title,
    sku: p.sku ?? "",
    description: editableDescription(p.description),
    amount: p.price?.amount ?? "",
    currency: p.price?.currency ?? "",
    brand: p.brand ?? "",
    gtin: p.gtin ?? "",
    mpn: p.mpn ?? "",
    availability: p.availability ?? "",
    quantity: quantityText(p.quantity),
    variantQuantities: p.variants.map((v) => quantityText(v.quantity)),
    images: p.images.length ? [...p.images] : [],
  };
}

const orNull = (s: string) => (s.trim() === "" ? null : s.trim());

export function validate(f: FormState): Errors {
  const e: Errors = {};
  if (!f.title.trim()) e.title = "A title is required";
  if (f.gtin.trim() && !/^\d{8,14}$/.test(f.gtin.trim())) e.gtin = "A GTIN is 8 to 14 digits";
  const amount = f.amount.trim();
  const currency = f.currency.trim().toUpperCase();
  if (amount && !/^\d{1,15}(\.\d{1,4})?$/.test(amount))
    e.amount = "Write the price as digits with up to 4 decimals, e.g. 19.99";
  if (amount && !/^[A-Z]{3}$/.test(currency)) e.currency = "Choose the price's currency";
  if (!amount && currency) e.amount = "Enter an amount, or clear the currency";
  const stock = readQuantity(f.quantity);
  if (!stock.ok) e.quantity = stock.message;
  f.variantQuantities.forEach((text, i) => {
    const read = readQuantity(text);
    if (!read.ok) e.variantQuantities = `Variant ${i + 1}: ${read.message}`;
  });
  f.images.forEach((url, i) => {
    if (!url.trim()) return;
    try {
      const u = new URL(url.trim());
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
    } catch {
      e.images = `Image ${i + 1} is not a web address (http or https)`;
    }
  });
  return e;
}

/** Only the fields that changed, plus the version the form was opened at. */
export function toPatch(f: FormState, p: ProductDetail): ProductPatch {
  const patch: ProductPatch = { version: p.version };
  if (f.title.trim() !== p.title) patch.title = f.title.trim();
  if (orNull(f.sku) !== (p.sku ?? null)) patch.sku = orNull(f.sku);
  // The form shows a description as text where it was text; it is sent only if the user changed it.
  if (f.description !== editableDescription(p.description))
    patch.description = f.description.trim() === "" ? null : f.description;
  const amount = f.amount.trim();
  const price = amount ? { amount, currency: f.currency.trim().toUpperCase() } : null;
  if (JSON.stringify(price) !== JSON.stringify(p.price ?? null)) patch.price = price;
  if (orNull(f.brand) !== (p.brand ?? null)) patch.brand = orNull(f.brand);
  if (orNull(f.gtin) !== (p.gtin ?? null)) patch.gtin = orNull(f.gtin);
  if (orNull(f.mpn) !== (p.mpn ?? null)) patch.mpn = orNull(f.mpn);
  if (orNull(f.availability) !== (p.availability ?? null))
    patch.availability = orNull(f.availability);
  const quantity = readQuantity(f.quantity);
  if (quantity.ok && quantity.quantity !== (p.quantity ?? null)) patch.quantity = quantity.quantity;
  // Variants are sent whole: the current ones with the stock the form gives each.
  const variants = p.variants.map((v, i) => {
    const read = readQuantity(f.variantQuantities[i] ?? "");
    return read.ok ? { ...v, quantity: read.quantity } : v;
  });
  if (variants.some((v, i) => v.quantity !== (p.variants[i]!.quantity ?? null)))
    patch.variants = variants;
  const images = f.images.map((u) => u.trim()).filter(Boolean);
  if (JSON.stringify(images) !== JSON.stringify(p.images)) patch.images = images;
  return patch;
}

/** Maps the gateway's 422 text (`body field "price.amount" must ...`) to the field it names. */
export function fieldOf(message: string): keyof FormState | null {
  const m = /field "([a-zA-Z]+)(?:\.([a-zA-Z0-9]+))?/.exec(message);
  if (!m) return null;
  const [, top, sub] = m;
  if (top === "price") return sub === "currency" ? "currency" : "amount";
  if (top === "variants" && /\.quantity"/.test(message)) return "variantQuantities";
  const known: (keyof FormState)[] = [
    "title",
    "sku",
    "description",
    "brand",
    "gtin",
    "mpn",
    "availability",
    "quantity",
    "images",
  ];
  return known.find((k) => k === top) ?? null;
}

/** The list with item i one place earlier (images are ordered by the user). */
export function moveUp<T>(list: T[], i: number): T[] {
  if (i <= 0) return list;
  const next = [...list];
  const [item] = next.splice(i, 1);
  next.splice(i - 1, 0, item as T);
  return next;
}
