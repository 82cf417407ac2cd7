// Stock as the dashboard shows and edits it: a count of units, or unknown.

/** The largest count the catalog stores (the API refuses more). */
export const MAX_QUANTITY = 2_147_483_647;

/** "12", "1,200", or "unknown" when the catalog does not know the stock. */
export function formatQuantity(quantity: number | null | undefined): string {
  return quantity === null || quantity === undefined ? "unknown" : quantity.toLocaleString("en");
}

/** A stock field's text for an input: the count, or empty when unknown. */
export function quantityText(quantity: number | null | undefined): string {
  return quantity === null || quantity === undefined ? "" : String(quantity);
}

export type QuantityRead = { ok: true; quantity: number | null } | { ok: false; message: string };

/** What a stock field says: empty is unknown; else a whole number from 0. */
export function readQuantity(text: string): QuantityRead {
  const t = text.trim();
  if (t === "") return { ok: true, quantity: null };
  if (!/^\d+$/.test(t) || Number(t) > MAX_QUANTITY)
    return { ok: false, message: "A whole number from 0, or empty if unknown" };
  return { ok: true, quantity: Number(t) };
}
