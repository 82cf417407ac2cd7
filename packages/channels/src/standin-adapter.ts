// Publishes to the stand-in channel the way a real REST adapter would: update what we know, else
// create with an idempotency key (so a worker that died after the channel created the listing
// cannot create it twice), and adopt what the channel already has under our SKU when the create
// is refused as a duplicate.
import { Type } from "typebox";
import type {
  ChannelAdapter,
  DestinationTarget,
  EndListingInput,
  OfferUpdateInput,
  PublishableProduct,
  PublishInput,
  PublishOutcome,
} from "./adapter.js";
import { okAnswer } from "./channel-answer.js";
import { channelCaller, throwIfFailed, type Answer } from "./channel-http.js";
import {
  missingField,
  requiredBaseUrl,
  requiredString,
  toChannelAmount,
} from "./destination-fields.js";
import type { GiveUpChannelError } from "./errors.js";
import { throwFirst } from "./preflight.js";

export interface StandinAdapterOptions {
  /** Budget for the whole publish (every request of it), not per request. */
  timeoutMs?: number;
}

const CHANNEL = "standin";

// The parts of the stand-in's answers we read (README: listings carry id, url, version, ...).
const ListingAnswer = Type.Object({
  id: Type.String({ minLength: 1 }),
  url: Type.Optional(Type.Unknown()),
});
const ListingsAnswer = Type.Object({
  items: Type.Array(Type.Object({ id: Type.String({ minLength: 1 }) })),
});

/** What the stand-in refuses before any call: the listing body's checks, and a dry run's. */
export function standinProductProblems(product: PublishableProduct): GiveUpChannelError[] {
  const problems: GiveUpChannelError[] = [];
  if (!product.title?.trim()) problems.push(missingField(CHANNEL, product, "title"));
  if (!product.priceAmount?.trim()) problems.push(missingField(CHANNEL, product, "priceAmount"));
  return problems;
}

export function standinListingBody(
  product: PublishableProduct,
  defaultCurrency: string | null,
): Record<string, unknown> {
  throwFirst(standinProductProblems(product));
  const currency = (product.priceCurrency ?? defaultCurrency)?.toUpperCase() ?? null;
  return {
    sku: product.sku,
    title: product.title,
    description: product.description,
    brand: product.brand,
    gtin: product.gtin,
    mpn: product.mpn,
    availability: product.availability ?? null,
    price: { amount: toChannelAmount(product.priceAmount!), currency },
    images: product.images,
    variants: product.variants.map((v) => ({
      sku: v.sku ?? null,
      title: v.title ?? null,
      price: v.priceAmount ? { amount: toChannelAmount(v.priceAmount), currency } : null,
      options: v.options ?? {},
      gtin: v.gtin ?? null,
    })),
    attributes: product.attributes,
  };
}

function outcomeOf(answer: Answer): PublishOutcome {
  const body = okAnswer(CHANNEL, answer, ListingAnswer, "listing");
  return { remoteId: body.id, remoteUrl: typeof body.url === "string" ? body.url : null };
}

async function publish(input: PublishInput, timeoutMs: number): Promise<PublishOutcome> {
  const { product, destination } = input;
  const settingsCurrency =
    typeof destination.settings.currency === "string" ? destination.settings.currency : null;
  const body = JSON.stringify(standinListingBody(product, settingsCurrency));
  const baseUrl = requiredBaseUrl(CHANNEL, destination);
  const token = requiredString(CHANNEL, destination, "token");

  const call = channelCaller(CHANNEL, input.signal, timeoutMs);
  const send = (
    method: string,
    path: string,
    withBody: boolean,
    extra: Record<string, string> = {},
  ) =>
    call({
      method,
      url: `${baseUrl}${path}`,
      body: withBody ? body : undefined,
      headers: {
        authorization: `Bearer ${token}`,
        ...(withBody ? { "content-type": "application/json" } : {}),
        ...extra,
      },
    });
  const update = (id: string) => send("PUT", `/v1/listings/${encodeURIComponent(id)}`, true);

  if (input.remoteId) {
    const answer = await update(input.remoteId);
    // Deleted on the channel's side since we stored its id: publish it anew below.
    if (answer.status !== 404) return outcomeOf(answer);
  }
  // Create first (the key makes a repeat return the first listing): one request in the usual case.
  const created = await send("POST", "/v1/listings", true, {
    "idempotency-key": input.idempotencyKey,
  });
  if (created.status === 409 && product.sku) {
    // The store has a listing under this SKU already (listed by hand, or under another key): adopt
    // it.
    const found = await send("GET", `/v1/listings?sku=${encodeURIComponent(product.sku)}`, false);
    const existing = okAnswer(CHANNEL, found, ListingsAnswer, "listing list").items[0];
    if (existing) return outcomeOf(await update(existing.id));
  }
  return outcomeOf(created);
}

/** The stand-in's request to one listing, with the destination's token. */
function listingCall(
  destination: DestinationTarget,
  signal: AbortSignal,
  timeoutMs: number,
  remoteId: string,
) {
  const baseUrl = requiredBaseUrl(CHANNEL, destination);
  const token = requiredString(CHANNEL, destination, "token");
  const call = channelCaller(CHANNEL, signal, timeoutMs);
  return (method: string, body?: unknown) =>
    call({
      method,
      url: `${baseUrl}/v1/listings/${encodeURIComponent(remoteId)}`,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
    });
}

/** PATCH /v1/listings/{id}: prices and quantities only. */
async function updateOffer(input: OfferUpdateInput, timeoutMs: number): Promise<void> {
  const { product, destination } = input;
  throwFirst(standinProductProblems(product));
  const settingsCurrency =
    typeof destination.settings.currency === "string" ? destination.settings.currency : null;
  const currency = (product.priceCurrency ?? settingsCurrency)?.toUpperCase() ?? null;
  const answer = await listingCall(
    destination,
    input.signal,
    timeoutMs,
    input.remoteId,
  )("PATCH", {
    price: { amount: toChannelAmount(product.priceAmount!), currency },
    availability: product.availability ?? null,
    quantity: product.quantity ?? null,
    variants: product.variants
      .filter((v) => v.sku)
      .map((v) => ({
        sku: v.sku,
        price: v.priceAmount ? { amount: toChannelAmount(v.priceAmount), currency } : null,
        quantity: v.quantity ?? null,
      })),
  });
  okAnswer(CHANNEL, answer, ListingAnswer, "listing");
}

/** DELETE /v1/listings/{id}; a listing the stand-in no longer has counts as ended. */
async function endListing(input: EndListingInput, timeoutMs: number): Promise<void> {
  const answer = await listingCall(
    input.destination,
    input.signal,
    timeoutMs,
    input.remoteId,
  )("DELETE");
  if (answer.status === 404) return;
  throwIfFailed(CHANNEL, answer);
}

export function createStandinAdapter(options: StandinAdapterOptions = {}): ChannelAdapter {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    channel: CHANNEL,
    publish: (input) => publish(input, timeoutMs),
    updateOffer: (input) => updateOffer(input, timeoutMs),
    endListing: (input) => endListing(input, timeoutMs),
  };
}
