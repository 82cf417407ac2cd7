// The preview's fields as the form edits them, and the edits a save sends: only what the user
// changed, so the service keeps its own reading (and where it came from) for the rest.
import type { Money, ProductFields } from "../shared/api";
import type { ProductEdits } from "../shared/protocol";
import { editableDescription } from "./description";

export interface Draft {
  title: string;
  sku: string;
  amount: string;
  currency: string;
  availability: string;
  /** Units in stock; empty when unknown. */
  quantity: string;
  brand: string;
  description: string;
  /** The images the user keeps, in the page's order. */
  images: string[];
}

export type DraftField = keyof Draft;
export type DraftCheck =
  { ok: true; edits: ProductEdits } | { ok: false; errors: Partial<Record<DraftField, string>> };

export function draftOf(product: ProductFields): Draft {
  return {
    title: product.title,
    sku: product.sku ?? "",
    amount: product.price?.amount ?? "",
    currency: product.price?.currency ?? "",
    availability: product.availability ?? "",
    quantity: product.quantity === null ? "" : String(product.quantity),
    brand: product.brand ?? "",
    // Text where the description was text (the service keeps it as <p> paragraphs), else its HTML.
    description: editableDescription(product.description),
    images: [...product.images],
  };
}

const orNull = (text: string) => (text.trim() === "" ? null : text.trim());

/** "19,99" (a decimal comma) reads as 19.99; thousands separators are not guessed. */
function amountOf(text: string): string | null {
  const trimmed = text.trim().replace(/^(\d+),(\d{1,4})$/, "$1.$2");
  return /^\d{1,15}(\.\d{1,4})?$/.test(trimmed) ? trimmed : null;
}

/** The draft checked as the service would check it, and the fields that differ from the preview. */
export function checkDraft(draft: Draft, product: ProductFields): DraftCheck {
  const errors: Partial<Record<DraftField, string>> = {};
  const title = draft.title.trim();
  if (!title) errors.title = "A product needs a title";
  else if (title.length > 500) errors.title = "At most 500 characters";

  let price: Money | null = null;
  const hasAmount = draft.amount.trim() !== "";
  const currency = draft.currency.trim().toUpperCase();
  if (hasAmount || currency) {
    const amount = amountOf(draft.amount);
    if (!hasAmount) errors.amount = "Enter the price, or clear the currency";
    else if (amount === null) errors.amount = "A price reads like 19.99";
    if (!/^[A-Z]{3}$/.test(currency)) errors.currency = "A 3-letter code such as EUR";
    if (amount !== null && !errors.currency) price = { amount, currency };
  }
  const quantity = draft.quantity.trim();
  if (quantity !== "" && !/^\d{1,10}$/.test(quantity)) errors.quantity = "A whole number from 0";
  else if (Number(quantity) > 2_147_483_647) errors.quantity = "At most 2147483647";
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  // An edit is a field whose text the user changed; what it sends is that text, tidied.
  const initial = draftOf(product);
  const changed = (field: DraftField) => draft[field] !== initial[field];
  const edits: ProductEdits = {};
  if (changed("title")) edits.title = title;
  if (changed("sku")) edits.sku = orNull(draft.sku);
  if (changed("amount") || changed("currency")) edits.price = price;
  if (changed("availability")) edits.availability = orNull(draft.availability);
  if (changed("quantity")) edits.quantity = quantity === "" ? null : Number(quantity);
  if (changed("brand")) edits.brand = orNull(draft.brand);
  if (changed("description")) edits.description = orNull(draft.description);
  if (
    draft.images.length !== initial.images.length ||
    draft.images.some((url, i) => url !== initial.images[i])
  )
    edits.images = draft.images;
  return { ok: true, edits };
}
