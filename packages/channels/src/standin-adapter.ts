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
import { channelCaller, throwIfFailed, throwUnlessEnded, type Answer } from "./channel-http.js";
import {
  missingField,
  requiredBaseUrl,
  requiredString,
  toChannelAmount,
} from "./destination-fields.js";
import type { GiveUpChannelError } from "./errors.js";
import { throwFirst } from "./preflight.js";
import { unitsOf } from "./quantity.js";

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
    quantity: unitsOf(product),
    price: { amount: toChannelAmount(product.priceAmount!), currency },
    images: product.images,
    variants: product.variants.map((v) => ({
      sku: v.sku ?? null,
      title: v.title ?? null,
      price: v.priceAmount ? { amount: toChannelAmount(v.priceAmount), currency } : null,
      options: v.options ?? {},
      gtin: v.gtin ?? null,
      quantity: unitsOf(product, v),
    })),
    attributes: product.attributes,
  };
}

function outcomeOf(answer: Answer): PublishOutcome {
  const body = okAnswer(CHANNEL, answer, ListingAnswer, "listing");
  return { remoteId: body.id, remoteUrl: typeof body.url === "string" ? body.url : null };
}

const currencyOf = (destination: DestinationTarget) =>
  typeof destination.settings.currency === "string" ? destination.settings.currency : null;

/** The cheap route's body (PATCH): the prices and quantities of the listing and its variants. */
export function standinOfferPatch(
  product: PublishableProduct,
  defaultCurrency: string | null,
): Record<string, unknown> {
  if (!product.priceAmount?.trim()) throw missingField(CHANNEL, product, "priceAmount");
  const currency = (product.priceCurrency ?? defaultCurrency)?.toUpperCase() ?? null;
  return {
    price: { amount: toChannelAmount(product.priceAmount), currency },
    quantity: unitsOf(product),
    variants: product.variants
      .filter((v) => v.sku)
      .map((v) => ({
        sku: v.sku,
        ...(v.priceAmount ? { price: { amount: toChannelAmount(v.priceAmount), currency } } : {}),
        quantity: unitsOf(product, v),
      })),
  };
}

/** One request to the listing of `remoteId` (PATCH or DELETE), with the destination's token. */
function listingCall(
  input: OfferUpdateInput | EndListingInput,
  timeoutMs: number,
  method: "PATCH" | "DELETE",
  body?: unknown,
): Promise<Answer> {
  const call = channelCaller(CHANNEL, input.signal, timeoutMs);
  return call({
    method,
    url: `${requiredBaseUrl(CHANNEL, input.destination)}/v1/listings/${encodeURIComponent(input.remoteId)}`,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      authorization: `Bearer ${requiredString(CHANNEL, input.destination, "token")}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
}

async function publish(input: PublishInput, timeoutMs: number): Promise<PublishOutcome> {
  const { product, destination } = input;
  const settingsCurrency = currencyOf(destination);
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

export function createStandinAdapter(options: StandinAdapterOptions = {}): ChannelAdapter {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    channel: CHANNEL,
    publish: (input) => publish(input, timeoutMs),
    async updateOffer(input) {
      const patch = standinOfferPatch(input.product, currencyOf(input.destination));
      throwIfFailed(CHANNEL, await listingCall(input, timeoutMs, "PATCH", patch));
    },
    async endListing(input) {
      throwUnlessEnded(CHANNEL, await listingCall(input, timeoutMs, "DELETE"));
    },
  };
}
