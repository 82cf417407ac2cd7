// Publishes to a WooCommerce store (REST wc/v3, consumer key and secret as HTTP Basic, so the
// store must be served over https): update the stored product, else adopt the one with our SKU,
// else create; then bring its variations in line with the catalog's variants, matched by SKU.
import { Type, type Static } from "typebox";
import type {
  ChannelAdapter,
  DestinationTarget,
  EndListingInput,
  OfferUpdateInput,
  PublishableProduct,
  PublishInput,
  PublishOutcome,
} from "../adapter.js";
import { okAnswer } from "../channel-answer.js";
import { channelCaller, okJson, throwUnlessEnded, type Answer } from "../channel-http.js";
import { requiredBaseUrl, requiredString } from "../destination-fields.js";
import { isVariable, offerBody, productBody, variationBody } from "./woocommerce-body.js";

const CHANNEL = "woocommerce";
/** WooCommerce's batch endpoints take at most 100 items. */
const BATCH = 100;

// The parts of WooCommerce's answers we read; the rest (and any field a store's plugins add) passes
// unread.
const SavedProduct = Type.Object({ id: Type.Integer(), permalink: Type.Optional(Type.Unknown()) });
type SavedProduct = Static<typeof SavedProduct>;
const ProductsBySku = Type.Array(Type.Object({ id: Type.Integer() }));
const Variations = Type.Array(Type.Object({ id: Type.Integer(), sku: Type.String() }));
type Batch = {
  create: Record<string, unknown>[];
  update: Record<string, unknown>[];
  delete: number[];
};

type Send = (method: string, path: string, payload?: unknown) => Promise<Answer>;

/** Requests to the store's wc/v3 API with its keys, for one publish, update or end. */
function storeSender(
  destination: DestinationTarget,
  signal: AbortSignal,
  timeoutMs: number,
  allowPrivate: boolean,
): Send {
  const api = `${requiredBaseUrl(CHANNEL, destination)}/wp-json/wc/v3`;
  const key = requiredString(CHANNEL, destination, "consumerKey");
  const secret = requiredString(CHANNEL, destination, "consumerSecret");
  // The store's address is the merchant's: checked again and pinned on every request.
  const call = channelCaller(CHANNEL, signal, timeoutMs, { allowPrivate });
  return (method, path, payload) =>
    call({
      method,
      url: `${api}${path}`,
      body: payload === undefined ? undefined : JSON.stringify(payload),
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`,
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
    });
}

async function publish(
  input: PublishInput,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<PublishOutcome> {
  const { product, destination } = input;
  const body = productBody(product);
  const send = storeSender(destination, input.signal, timeoutMs, allowPrivate);
  const bySku = async (sku: string): Promise<number | null> => {
    const found = okAnswer(
      CHANNEL,
      await send("GET", `/products?sku=${encodeURIComponent(sku)}`),
      ProductsBySku,
      "product list",
    );
    return found[0]?.id ?? null;
  };

  const savedProduct = (answer: Answer) => okAnswer(CHANNEL, answer, SavedProduct, "product");
  let saved: SavedProduct | null = null;
  if (input.remoteId) {
    const answer = await send("PUT", `/products/${encodeURIComponent(input.remoteId)}`, body);
    // Deleted in the store since we stored its id: publish it anew below.
    if (answer.status !== 404) saved = savedProduct(answer);
  }
  if (!saved && product.sku) {
    const id = await bySku(product.sku);
    if (id !== null) saved = savedProduct(await send("PUT", `/products/${id}`, body));
  }
  if (!saved) {
    const answer = await send("POST", "/products", body);
    // Created by a parallel publish between our lookup and this create: adopt it.
    const race =
      answer.status === 400 && product.sku && /product_invalid_sku|duplicate/i.test(answer.text)
        ? await bySku(product.sku)
        : null;
    saved = savedProduct(race !== null ? await send("PUT", `/products/${race}`, body) : answer);
  }
  const outcome = {
    remoteId: String(saved.id),
    remoteUrl: typeof saved.permalink === "string" ? saved.permalink : null,
  };
  await input.saveRemoteId(outcome.remoteId, outcome.remoteUrl);
  if (isVariable(product)) await syncVariations(send, saved.id, product);
  return outcome;
}

/**
 * The cheap route: a simple product's price and stock in one product update; a variable one's in
 * one batch update of its variations (matched by SKU). Nothing else of the product is sent.
 */
async function updateOffer(
  input: OfferUpdateInput,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<void> {
  const { product } = input;
  const send = storeSender(input.destination, input.signal, timeoutMs, allowPrivate);
  const id = encodeURIComponent(input.remoteId);
  if (!isVariable(product)) {
    okJson(CHANNEL, await send("PUT", `/products/${id}`, offerBody(product)));
    return;
  }
  const existing = okAnswer(
    CHANNEL,
    await send("GET", `/products/${id}/variations?per_page=100`),
    Variations,
    "variation list",
  );
  const bySku = new Map(existing.map((v) => [v.sku, v.id]));
  const update = product.variants.flatMap((variant) => {
    const variationId = variant.sku ? bySku.get(variant.sku) : undefined;
    return variationId === undefined ? [] : [{ id: variationId, ...offerBody(product, variant) }];
  });
  for (let i = 0; i < update.length; i += BATCH)
    okJson(
      CHANNEL,
      await send("POST", `/products/${id}/variations/batch`, {
        update: update.slice(i, i + BATCH),
      }),
    );
}

/**
 * Deletes the product (and with it its variations). `force=true`: the contract requires it, and a
 * trashed product would keep its SKU, so listing it again later could not create it anew.
 */
async function endListing(
  input: EndListingInput,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<void> {
  const send = storeSender(input.destination, input.signal, timeoutMs, allowPrivate);
  throwUnlessEnded(
    CHANNEL,
    await send("DELETE", `/products/${encodeURIComponent(input.remoteId)}?force=true`),
  );
}

/** Creates, updates and deletes variations so the store holds exactly the catalog's variants. */
async function syncVariations(send: Send, productId: number, product: PublishableProduct) {
  const existing = okAnswer(
    CHANNEL,
    await send("GET", `/products/${productId}/variations?per_page=100`),
    Variations,
    "variation list",
  );
  const bySku = new Map(existing.map((v) => [v.sku, v.id]));
  const wanted = new Set(product.variants.map((v) => v.sku).filter(Boolean));
  const create: Record<string, unknown>[] = [];
  const update: Record<string, unknown>[] = [];
  for (const variant of product.variants) {
    const id = variant.sku ? bySku.get(variant.sku) : undefined;
    if (id !== undefined) update.push({ id, ...variationBody(product, variant) });
    else create.push(variationBody(product, variant));
  }
  const remove = [...bySku.entries()].filter(([sku]) => !wanted.has(sku)).map(([, id]) => id);
  const items = [
    ...create.map((c) => ["create", c] as const),
    ...update.map((u) => ["update", u] as const),
    ...remove.map((d) => ["delete", d] as const),
  ];
  for (let i = 0; i < items.length; i += BATCH) {
    const batch: Batch = { create: [], update: [], delete: [] };
    for (const [kind, item] of items.slice(i, i + BATCH)) {
      if (kind === "delete") batch.delete.push(item);
      else batch[kind].push(item);
    }
    okJson(CHANNEL, await send("POST", `/products/${productId}/variations/batch`, batch));
  }
}

/**
 * `allowPrivate`: stores on private addresses may be used (CHANNEL_PRIVATE_URLS, development only).
 */
export function createWoocommerceAdapter(timeoutMs: number, allowPrivate: boolean): ChannelAdapter {
  return {
    channel: CHANNEL,
    publish: (input) => publish(input, timeoutMs, allowPrivate),
    updateOffer: (input) => updateOffer(input, timeoutMs, allowPrivate),
    endListing: (input) => endListing(input, timeoutMs, allowPrivate),
  };
}
