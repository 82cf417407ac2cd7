// Publishes to a WooCommerce store (REST wc/v3, consumer key and secret as HTTP Basic, so the
// store must be served over https): update the stored product, else adopt the one with our SKU,
// else create; then bring its variations in line with the catalog's variants, matched by SKU.
import type { ChannelAdapter, PublishableProduct, PublishInput, PublishOutcome } from "../adapter.js";
import { channelCaller, jsonBody, okJson, throwIfFailed, type Answer } from "../channel-http.js";
import { requiredBaseUrl, requiredString } from "../destination-fields.js";
import { RetryableChannelError } from "../errors.js";
import { isVariable, productBody, variationBody } from "./woocommerce-body.js";

const CHANNEL = "woocommerce";
/** WooCommerce's batch endpoints take at most 100 items. */
const BATCH = 100;

type Json = Record<string, any>;

async function publish(input: PublishInput, timeoutMs: number, allowPrivate: boolean): Promise<PublishOutcome> {
  const { product, destination } = input;
  const body = productBody(product);
  const api = `${requiredBaseUrl(CHANNEL, destination)}/wp-json/wc/v3`;
  const key = requiredString(CHANNEL, destination, "consumerKey");
  const secret = requiredString(CHANNEL, destination, "consumerSecret");
  // The store's address is the merchant's: checked again and pinned on every request.
  const call = channelCaller(CHANNEL, input.signal, timeoutMs, { allowPrivate });
  const send = (method: string, path: string, payload?: unknown): Promise<Answer> => call({
    method, url: `${api}${path}`, body: payload === undefined ? undefined : JSON.stringify(payload),
    headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`, ...(payload === undefined ? {} : { "content-type": "application/json" }) },
  });
  const bySku = async (sku: string): Promise<number | null> => {
    const found = okJson(CHANNEL, await send("GET", `/products?sku=${encodeURIComponent(sku)}`));
    const first = (Array.isArray(found) ? found : [])[0] as Json | undefined;
    return typeof first?.id === "number" ? first.id : null;
  };

  let saved: Json | null = null;
  if (input.remoteId) {
    const answer = await send("PUT", `/products/${encodeURIComponent(input.remoteId)}`, body);
    // Deleted in the store since we stored its id: publish it anew below.
    if (answer.status !== 404) saved = okJson(CHANNEL, answer);
  }
  if (!saved && product.sku) {
    const id = await bySku(product.sku);
    if (id !== null) saved = okJson(CHANNEL, await send("PUT", `/products/${id}`, body));
  }
  if (!saved) {
    const answer = await send("POST", "/products", body);
    // Created by a parallel publish between our lookup and this create: adopt it.
    const race = answer.status === 400 && product.sku && /product_invalid_sku|duplicate/i.test(answer.text) ? await bySku(product.sku) : null;
    saved = race !== null ? okJson(CHANNEL, await send("PUT", `/products/${race}`, body)) : okJson(CHANNEL, answer);
  }
  if (typeof saved.id !== "number") throw new RetryableChannelError(`${CHANNEL} answered without a product id`, { channel: CHANNEL });
  const outcome = { remoteId: String(saved.id), remoteUrl: typeof saved.permalink === "string" ? saved.permalink : null };
  await input.saveRemoteId(outcome.remoteId, outcome.remoteUrl);
  if (isVariable(product)) await syncVariations(send, saved.id, product);
  return outcome;
}

/** Creates, updates and deletes variations so the store holds exactly the catalog's variants. */
async function syncVariations(send: (m: string, p: string, b?: unknown) => Promise<Answer>, productId: number, product: PublishableProduct) {
  const existingAnswer = await send("GET", `/products/${productId}/variations?per_page=100`);
  throwIfFailed(CHANNEL, existingAnswer);
  const existing = jsonBody(CHANNEL, existingAnswer) as unknown as Json[];
  const bySku = new Map((Array.isArray(existing) ? existing : []).map((v) => [v.sku as string, v.id as number]));
  const wanted = new Set(product.variants.map((v) => v.sku).filter(Boolean));
  const create: Json[] = [];
  const update: Json[] = [];
  for (const variant of product.variants) {
    const id = variant.sku ? bySku.get(variant.sku) : undefined;
    if (id !== undefined) update.push({ id, ...variationBody(product, variant) });
    else create.push(variationBody(product, variant));
  }
  const remove = [...bySku.entries()].filter(([sku]) => !wanted.has(sku)).map(([, id]) => id);
  const items = [...create.map((c) => ["create", c] as const), ...update.map((u) => ["update", u] as const), ...remove.map((d) => ["delete", d] as const)];
  for (let i = 0; i < items.length; i += BATCH) {
    const batch: Json = { create: [], update: [], delete: [] };
    for (const [kind, item] of items.slice(i, i + BATCH)) batch[kind].push(item);
    okJson(CHANNEL, await send("POST", `/products/${productId}/variations/batch`, batch));
  }
}

/** `allowPrivate`: stores on private addresses may be used (CHANNEL_PRIVATE_URLS, development only). */
export function createWoocommerceAdapter(timeoutMs: number, allowPrivate: boolean): ChannelAdapter {
  return { channel: CHANNEL, publish: (input) => publish(input, timeoutMs, allowPrivate) };
}
