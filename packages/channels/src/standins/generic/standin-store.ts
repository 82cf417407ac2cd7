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
  /** Units in stock; null when the catalog does not know. */
  quantity: number | null;
  price: StandinPrice;
  images: string[];
  variants: unknown[];
  attributes: Record<string, unknown>;
}

export interface StandinListing extends StandinListingInput {
  id: string;
  url: string;
  /** 1 on create, +1 per update: lets a test tell "updated twice" from "created twice". */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface StandinCounts {
  create: number;
  /** Writes to an existing listing: full (PUT) and offer-only (PATCH) alike. */
  update: number;
  /** Every /v1 request that named this store, faulted ones included. */
  requests: number;
  /** Those of them refused for going over the declared rate (429). */
  throttled: number;
  /** Those requests per route: "PUT /v1/listings/{id}", "PATCH /v1/listings/{id}", ... */
  routes: Record<string, number>;
}

/** The cheap route's body (PATCH): prices and quantities only, of the listing and its variants. */
export interface StandinOfferPatch {
  price?: StandinPrice;
  quantity?: number | null;
  variants?: Array<{ sku: string; price?: StandinPrice; quantity?: number | null }>;
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

const isQuantity = (v: unknown) => v === null || (Number.isInteger(v) && (v as number) >= 0);

function priceProblem(value: unknown, field: string): InputProblem | null {
  const price = value as Record<string, unknown> | undefined;
  if (
    !price ||
    typeof price !== "object" ||
    typeof price.amount !== "string" ||
    !DECIMAL.test(price.amount)
  ) {
    return {
      message: `${field}.amount is required as a decimal string such as "19.99"`,
      field: `${field}.amount`,
    };
  }
  if (
    price.currency !== undefined &&
    price.currency !== null &&
    (typeof price.currency !== "string" || !/^[A-Z]{3}$/.test(price.currency))
  ) {
    return { message: `${field}.currency must be an ISO 4217 code`, field: `${field}.currency` };
  }
  return null;
}

/** Checks a PATCH body: only price, quantity and variants' sku, price and quantity. */
export function parseOfferPatch(value: unknown): StandinOfferPatch | InputProblem {
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { message: "body must be a JSON object", field: "" };
  const b = value as Record<string, unknown>;
  const extra = Object.keys(b).find((k) => !["price", "quantity", "variants"].includes(k));
  if (extra) return { message: `${extra} cannot be changed here (use PUT)`, field: extra };
  if (b.price !== undefined) {
    const problem = priceProblem(b.price, "price");
    if (problem) return problem;
  }
  if (b.quantity !== undefined && !isQuantity(b.quantity))
    return { message: "quantity must be an integer >= 0 or null", field: "quantity" };
  if (b.variants !== undefined) {
    if (!Array.isArray(b.variants))
      return { message: "variants must be an array", field: "variants" };
    for (const [i, v] of (b.variants as Array<Record<string, unknown>>).entries()) {
      if (!v || typeof v !== "object" || typeof v.sku !== "string")
        return { message: `variants[${i}].sku is required`, field: `variants[${i}].sku` };
      const problem = v.price === undefined ? null : priceProblem(v.price, `variants[${i}].price`);
      if (problem) return problem;
      if (v.quantity !== undefined && !isQuantity(v.quantity))
        return {
          message: `variants[${i}].quantity must be an integer >= 0 or null`,
          field: `variants[${i}].quantity`,
        };
    }
  }
  return b;
}

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
  const problem = priceProblem(b.price, "price");
  if (problem) return problem;
  const price = b.price as { amount: string; currency?: string | null };
  if (b.quantity !== undefined && !isQuantity(b.quantity))
    return { message: "quantity must be an integer >= 0 or null", field: "quantity" };
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
    quantity: (b.quantity as number | null | undefined) ?? null,
    price: { amount: price.amount, currency: price.currency ?? null },
    images: b.images ?? [],
    variants: (b.variants as unknown[] | undefined) ?? [],
    attributes: attributes as Record<string, unknown>,
  };
}

export class StandinStore {
  readonly listings = new Map<string, StandinListing>();
  readonly counts: StandinCounts = {
    create: 0,
    update: 0,
    requests: 0,
    throttled: 0,
    routes: {},
  };
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

  /** The cheap route (PATCH): prices and quantities only; undefined when there is no listing. */
  patchOffer(id: string, patch: StandinOfferPatch): StandinListing | InputProblem | undefined {
    const old = this.listings.get(id);
    if (!old) return undefined;
    const variants = old.variants.map((v) => ({ ...(v as Record<string, unknown>) }));
    for (const change of patch.variants ?? []) {
      const variant = variants.find((v) => v.sku === change.sku);
      if (!variant) return { message: `no variant with sku ${change.sku}`, field: "variants" };
      if (change.price !== undefined) variant.price = change.price;
      if (change.quantity !== undefined) variant.quantity = change.quantity;
    }
    const listing: StandinListing = {
      ...old,
      ...(patch.price === undefined ? {} : { price: patch.price }),
      ...(patch.quantity === undefined ? {} : { quantity: patch.quantity }),
      variants,
      version: old.version + 1,
      updatedAt: new Date().toISOString(),
    };
    this.listings.set(id, listing);
    this.counts.update += 1;
    return listing;
  }

  /** Ends the listing (DELETE); false when there is none. */
  remove(id: string): boolean {
    const listing = this.listings.get(id);
    if (!listing) return false;
    this.listings.delete(id);
    if (listing.sku !== null && this.bySku.get(listing.sku) === id) this.bySku.delete(listing.sku);
    return true;
  }

  inspect(): StandinInspection {
    return {
      listings: [...this.listings.values()],
      counts: { ...this.counts, routes: { ...this.counts.routes } },
      fault: this.fault?.fault ?? null,
    };
  }
}
