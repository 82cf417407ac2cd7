import { createHash } from "node:crypto";
import type { PublishableProduct } from "@catalog/channels";

// The product as the channel receives it, split in two: the offer (prices and quantities, of the
// product and of each variant by SKU), which a channel's cheap route can carry, and everything
// else, kept as a hash. It is stored on the listing (Listing.syncedView) after every success, so
// an update can tell "nothing the channel receives changed" (no call), "only the offer changed"
// (the cheap route) and anything else (a full update).

export interface OfferView {
  price: string | null;
  currency: string | null;
  quantity: number | null;
  availability: string | null;
  /** By variant SKU (or position, for a variant without one). */
  variants: Record<string, { price: string | null; quantity: number | null }>;
}

export interface ChannelView {
  offer: OfferView;
  /** SHA-256 of everything else the channel receives. */
  rest: string;
}

export type ViewChange = "none" | "offer" | "full";

/** Canonical JSON: object keys sorted, so equal content hashes alike whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function channelView(product: PublishableProduct): ChannelView {
  const variants: OfferView["variants"] = {};
  product.variants.forEach((v, i) => {
    variants[v.sku ?? `#${i}`] = { price: v.priceAmount ?? null, quantity: v.quantity ?? null };
  });
  const {
    priceAmount,
    priceCurrency,
    quantity,
    availability,
    variants: _variants,
    ...others
  } = product;
  const rest = {
    ...others,
    variants: product.variants.map(({ priceAmount: _p, quantity: _q, ...v }) => v),
  };
  return {
    offer: {
      price: priceAmount,
      currency: priceCurrency,
      quantity: quantity ?? null,
      availability: availability ?? null,
      variants,
    },
    rest: createHash("sha256").update(canonical(rest)).digest("hex"),
  };
}

const isView = (value: unknown): value is ChannelView =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ChannelView).rest === "string" &&
  typeof (value as ChannelView).offer === "object";

/**
 * How `now` differs from what the channel last received. A listing without a stored view (one
 * published before views were kept) gets a full update. A change of currency or of the variants'
 * SKUs is not an offer change: the cheap routes address existing SKUs in the listing's currency.
 */
export function viewChange(synced: unknown, now: ChannelView): ViewChange {
  if (!isView(synced)) return "full";
  if (synced.rest !== now.rest) return "full";
  if (canonical(synced.offer) === canonical(now.offer)) return "none";
  const sameSkus =
    canonical(Object.keys(synced.offer.variants).sort()) ===
    canonical(Object.keys(now.offer.variants).sort());
  return sameSkus && synced.offer.currency === now.offer.currency ? "offer" : "full";
}

/**
 * Out of stock for the `endAndRelist` policy: every known quantity is 0 (the product's, or each
 * variant's, a variant without its own taking the product's), and none is unknown.
 */
export function outOfStock(product: PublishableProduct): boolean {
  const own = product.quantity ?? null;
  if (product.variants.length === 0) return own === 0;
  return product.variants.every((v) => (v.quantity ?? own) === 0);
}
