// State of the stand-in channel: listings per store, the counters tests assert on and the fault
// each store is told to play. Plain Maps and no I/O, so the HTTP layer stays a thin router and a
// benchmark measures the pipeline, not the stand-in.

import type { StandinFault } from "../kit/channel-standin.js";

export type { StandinFault };

export interface StandinPrice {
  amount: string;
  currency: string | null;
}

export interface StandinListingInput {
  sku: string | null;
  title: string;
  description: string | null;
  brand: string | null;
  gtin: string | null;
  mpn: string | null;
  availability: string | null;
  price: StandinPrice;
  images: string[];
  variants: unknown[];
  attributes: Record<string, unknown>;
}

export interface StandinListing extends StandinListingInput {
  /** Units in stock, as the last offer update set it (absent until one did). */
  quantity?: number | null;
  id: string;
  url: string;
  /** 1 on create, +1 per update: lets a test tell "updated twice" from "created twice". */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface StandinCounts {
  create: number;
  update: number;
  /** Offer updates (PATCH: prices and quantities only). */
  offer: number;
  /** Listings ended (DELETE). */
  end: number;
  /** Requests refused for going over the declared rate (429). */
  throttled: number;
  /** Every /v1 request that named this store, faulted ones included. */
  requests: number;
}

export interface StandinInspection {
  listings: StandinListing[];
  counts: StandinCounts;
  fault: StandinFault | null;
}

export interface InputProblem {
  message: string;
  field: string;
}

const MAX_TITLE = 255;
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

/** The fault as sent to the control API, or a message saying what is wrong with it. */
/** Checks a POST/PUT body the way a strict marketplace would. */
export function parseListingInput(value: unknown): StandinListingInput | InputProblem {
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { message: "body must be a JSON object", field: "" };
  const b = value as Record<string, unknown>;
  const optional: Array<keyof StandinListingInput> = [
    "sku",
    "description",
    "brand",
    "gtin",
    "mpn",
    "availability",
  ];
  for (const key of optional) {
    if (b[key] !== undefined && b[key] !== null && typeof b[key] !== "string")
      return { message: `${key} must be a string`, field: key };
  }
  if (typeof b.title !== "string" || !b.title.trim())
    return { message: "title is required", field: "title" };
  if (b.title.length > MAX_TITLE)
    return { message: `title must be at most ${MAX_TITLE} characters`, field: "title" };
  const price = b.price as Record<string, unknown> | undefined;
  if (
    !price ||
    typeof price !== "object" ||
    typeof price.amount !== "string" ||
    !DECIMAL.test(price.amount)
  ) {
    return {
      message: 'price.amount is required as a decimal string such as "19.99"',
      field: "price.amount",
    };
  }
  if (
    price.currency !== undefined &&
    price.currency !== null &&
    (typeof price.currency !== "string" || !/^[A-Z]{3}$/.test(price.currency))
  ) {
    return { message: "price.currency must be an ISO 4217 code", field: "price.currency" };
  }
  if (
    b.images !== undefined &&
    !(Array.isArray(b.images) && b.images.every((i) => typeof i === "string"))
  ) {
    return { message: "images must be an array of URLs", field: "images" };
  }
  if (b.variants !== undefined && !Array.isArray(b.variants))
    return { message: "variants must be an array", field: "variants" };
  const attributes = b.attributes ?? {};
  if (typeof attributes !== "object" || Array.isArray(attributes))
    return { message: "attributes must be an object", field: "attributes" };
  const text = (key: string) => (typeof b[key] === "string" ? b[key] : null);
  return {
    sku: text("sku"),
    title: b.title,
    description: text("description"),
    brand: text("brand"),
    gtin: text("gtin"),
    mpn: text("mpn"),
    availability: text("availability"),
    price: { amount: price.amount, currency: price.currency ?? null },
    images: b.images ?? [],
    variants: (b.variants as unknown[] | undefined) ?? [],
    attributes: attributes as Record<string, unknown>,
  };
}

/** A PATCH body: the prices and quantities of a listing (the cheap route of a sync). */
export interface StandinOfferInput {
  price: StandinPrice;
  availability: string | null;
  quantity: number | null;
  variants: { sku: string; price: StandinPrice | null; quantity: number | null }[];
}

const isCount = (v: unknown) =>
  v === null || v === undefined || (Number.isInteger(v) && (v as number) >= 0);

/** Checks a PATCH body: price as in a listing, quantities whole numbers >= 0 or null. */
export function parseOfferInput(value: unknown): StandinOfferInput | InputProblem {
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { message: "body must be a JSON object", field: "" };
  const b = value as Record<string, unknown>;
  const price = b.price as Record<string, unknown> | undefined;
  if (!price || typeof price.amount !== "string" || !DECIMAL.test(price.amount))
    return { message: "price.amount is required as a decimal string", field: "price.amount" };
  if (!isCount(b.quantity))
    return { message: "quantity must be a whole number >= 0 or null", field: "quantity" };
  if (b.availability !== undefined && b.availability !== null && typeof b.availability !== "string")
    return { message: "availability must be a string", field: "availability" };
  const variants = b.variants ?? [];
  if (!Array.isArray(variants)) return { message: "variants must be an array", field: "variants" };
  for (const v of variants as Record<string, unknown>[]) {
    if (!v || typeof v.sku !== "string")
      return { message: "variants[].sku is required", field: "variants" };
    if (!isCount(v.quantity))
      return {
        message: "variants[].quantity must be a whole number >= 0 or null",
        field: "variants",
      };
  }
  return {
    price: {
      amount: price.amount,
      currency: typeof price.currency === "string" ? price.currency : null,
    },
    availability: typeof b.availability === "string" ? b.availability : null,
    quantity: typeof b.quantity === "number" ? b.quantity : null,
    variants: (variants as Record<string, unknown>[]).map((v) => ({
      sku: v.sku as string,
      price: (v.price as StandinPrice | null | undefined) ?? null,
      quantity: typeof v.quantity === "number" ? v.quantity : null,
    })),
  };
}

export class StandinStore {
  readonly listings = new Map<string, StandinListing>();
  readonly counts: StandinCounts = {
    create: 0,
    update: 0,
    offer: 0,
    end: 0,
    throttled: 0,
    requests: 0,
  };
  private tokens: { left: number; at: number } | null = null;
  private readonly bySku = new Map<string, string>();
  private readonly byIdempotencyKey = new Map<string, string>();
  private fault: { fault: StandinFault; remaining: number } | null = null;

  constructor(
    readonly id: string,
    private readonly nextId: () => string,
    private readonly urlOf: (storeId: string, listingId: string) => string,
  ) {}

  setFault(fault: StandinFault | null): void {
    this.fault = fault && fault.times !== 0 ? { fault, remaining: fault.times ?? Infinity } : null;
  }

  /** The fault this request must play, counting it down; `times` used up clears it. */
  takeFault(): StandinFault | null {
    if (!this.fault) return null;
    const { fault } = this.fault;
    this.fault.remaining -= 1;
    if (this.fault.remaining <= 0) this.fault = null;
    return fault;
  }

  findBySku(sku: string): StandinListing[] {
    const id = this.bySku.get(sku);
    const listing = id === undefined ? undefined : this.listings.get(id);
    return listing ? [listing] : [];
  }

  /** The listing and whether it is new; a known idempotency key returns the first result. */
  create(
    input: StandinListingInput,
    idempotencyKey: string | undefined,
  ): { listing: StandinListing; created: boolean } | InputProblem {
    const replayed =
      idempotencyKey === undefined ? undefined : this.byIdempotencyKey.get(idempotencyKey);
    const earlier = replayed === undefined ? undefined : this.listings.get(replayed);
    if (earlier) return { listing: earlier, created: false };
    if (input.sku !== null && this.bySku.has(input.sku))
      return { message: `a listing with sku ${input.sku} already exists`, field: "sku" };
    const id = this.nextId();
    const now = new Date().toISOString();
    const listing: StandinListing = {
      id,
      url: this.urlOf(this.id, id),
      ...input,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    this.listings.set(id, listing);
    if (input.sku !== null) this.bySku.set(input.sku, id);
    if (idempotencyKey !== undefined) this.byIdempotencyKey.set(idempotencyKey, id);
    this.counts.create += 1;
    return { listing, created: true };
  }

  /** Full replace of the content (PUT); undefined when the listing does not exist in this store. */
  update(id: string, input: StandinListingInput): StandinListing | InputProblem | undefined {
    const old = this.listings.get(id);
    if (!old) return undefined;
    const owner = input.sku === null ? undefined : this.bySku.get(input.sku);
    if (owner !== undefined && owner !== id)
      return { message: `a listing with sku ${input.sku} already exists`, field: "sku" };
    if (old.sku !== null && old.sku !== input.sku) this.bySku.delete(old.sku);
    if (input.sku !== null) this.bySku.set(input.sku, id);
    // A new object rather than a mutation, so inspections handed out earlier stay as they were.
    const listing: StandinListing = {
      ...old,
      ...input,
      version: old.version + 1,
      updatedAt: new Date().toISOString(),
    };
    this.listings.set(id, listing);
    this.counts.update += 1;
    return listing;
  }

  /** A token of the declared rate's bucket (`rate` a second, holding one second's worth). */
  takeToken(rate: number, now = Date.now()): boolean {
    const bucket = (this.tokens ??= { left: rate, at: now });
    bucket.left = Math.min(rate, bucket.left + ((now - bucket.at) * rate) / 1000);
    bucket.at = now;
    if (bucket.left < 1) return false;
    bucket.left -= 1;
    return true;
  }

  /** Prices and quantities only (PATCH); undefined when the listing does not exist. */
  updateOffer(id: string, offer: StandinOfferInput): StandinListing | undefined {
    const old = this.listings.get(id);
    if (!old) return undefined;
    const bySku = new Map(offer.variants.map((v) => [v.sku, v]));
    const listing: StandinListing = {
      ...old,
      price: offer.price.currency ? offer.price : { ...offer.price, currency: old.price.currency },
      availability: offer.availability,
      quantity: offer.quantity,
      variants: old.variants.map((v) => {
        const sku = (v as { sku?: unknown }).sku;
        const change = typeof sku === "string" ? bySku.get(sku) : undefined;
        return change ? { ...(v as object), price: change.price, quantity: change.quantity } : v;
      }),
      version: old.version + 1,
      updatedAt: new Date().toISOString(),
    };
    this.listings.set(id, listing);
    this.counts.offer += 1;
    return listing;
  }

  /** Ends (removes) the listing; false when it does not exist. */
  end(id: string): boolean {
    const old = this.listings.get(id);
    if (!old) return false;
    this.listings.delete(id);
    if (old.sku !== null && this.bySku.get(old.sku) === id) this.bySku.delete(old.sku);
    this.counts.end += 1;
    return true;
  }

  inspect(): StandinInspection {
    return {
      listings: [...this.listings.values()],
      counts: { ...this.counts },
      fault: this.fault?.fault ?? null,
    };
  }
}
