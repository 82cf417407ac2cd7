// Publishes through Shopify's Admin GraphQL API with productSet as the upsert: by the stored
// product id when we have one, else by the id of a product found by SKU (adopted), else by our
// own handle for the product (created, or found if an earlier attempt made it). Shopify answers
// business errors and throttling with HTTP 200, so the body is classified here.
import type { ChannelAdapter, PublishInput, PublishOutcome } from "../adapter.js";
import { channelCaller, okJson, type ChannelCall } from "../channel-http.js";
import { requiredBaseUrl, requiredString } from "../destination-fields.js";
import { ChannelWaitError, GiveUpChannelError, RetryableChannelError } from "../errors.js";
import { API_VERSION, PRODUCT_BY_SKU, PRODUCT_SET, productSetInput, shopifyHandle, skuQuery } from "./shopify-documents.js";

const CHANNEL = "shopify";

type Json = Record<string, any>;

/** Seconds until the bucket holds what the query costs, from Shopify's throttleStatus (at least 1 s). */
export function throttleWaitMs(cost: Json | undefined): number | undefined {
  const status = cost?.throttleStatus;
  if (!status || typeof status.restoreRate !== "number" || status.restoreRate <= 0) return undefined;
  const missing = Number(cost!.requestedQueryCost ?? 0) - Number(status.currentlyAvailable ?? 0);
  return Math.max(1_000, Math.ceil((missing / status.restoreRate) * 1000));
}

function graphqlClient(call: ChannelCall, baseUrl: string, token: string) {
  return async (query: string, variables: Json): Promise<Json> => {
    const answer = await call({
      method: "POST", url: `${baseUrl}/admin/api/${API_VERSION}/graphql.json`,
      headers: { "x-shopify-access-token": token, "content-type": "application/json" }, body: JSON.stringify({ query, variables }),
    });
    const body = okJson(CHANNEL, answer) as Json;
    const errors: Json[] = Array.isArray(body.errors) ? body.errors : [];
    const throttled = errors.find((e) => e?.extensions?.code === "THROTTLED");
    if (throttled) {
      const retryAfterMs = throttleWaitMs(throttled.extensions.cost ?? body.extensions?.cost);
      throw new ChannelWaitError(`shopify asked to wait: ${throttled.message ?? "throttled"}`, { channel: CHANNEL, status: answer.status, retryAfterMs });
    }
    if (errors.length > 0) {
      const said = errors.map((e) => e?.message).filter(Boolean).join("; ").slice(0, 300);
      throw new GiveUpChannelError(`shopify refused the request: ${said}`, { channel: CHANNEL, status: answer.status, kind: "validation", channelMessage: said });
    }
    if (!body.data || typeof body.data !== "object") throw new RetryableChannelError(`shopify answered ${answer.status} without data`, { channel: CHANNEL, status: answer.status });
    return body.data as Json;
  };
}

const numericId = (gid: string) => gid.split("/").pop() ?? gid;

async function publish(input: PublishInput, timeoutMs: number): Promise<PublishOutcome> {
  const { product, destination } = input;
  const productInput = productSetInput(product);
  const baseUrl = requiredBaseUrl(CHANNEL, destination);
  const token = requiredString(CHANNEL, destination, "accessToken");
  const graphql = graphqlClient(channelCaller(CHANNEL, input.signal, timeoutMs), baseUrl, token);

  let productId = input.remoteId;
  const lookupSku = product.sku ?? product.variants.find((v) => v.sku)?.sku;
  if (!productId && lookupSku) {
    const found = await graphql(PRODUCT_BY_SKU, { query: skuQuery(lookupSku) });
    productId = found.productVariants?.nodes?.[0]?.product?.id ?? null;
  }
  // A known product is updated by id (its handle left as the merchant has it); otherwise the
  // product is upserted by our handle, so a repeated first publish cannot make a second product.
  const set = async (identifier: Json, input: Json) => (await graphql(PRODUCT_SET, { identifier, input })).productSet as Json;
  const handle = shopifyHandle(product);
  const byHandle = () => set({ handle }, { ...productInput, handle });
  let result = productId ? await set({ id: productId }, productInput) : await byHandle();
  // Deleted in the shop since we stored its id: publish it anew.
  if (productId && result?.userErrors?.some((e: Json) => e.code === "PRODUCT_DOES_NOT_EXIST")) result = await byHandle();
  const userErrors: Json[] = result?.userErrors ?? [];
  if (userErrors.length > 0) {
    const said = userErrors.map((e) => e.message).join("; ").slice(0, 300);
    const field = Array.isArray(userErrors[0]!.field) ? userErrors[0]!.field.join(".") : undefined;
    throw new GiveUpChannelError(`shopify refused the product: ${said}`, { channel: CHANNEL, kind: "validation", channelMessage: said, field });
  }
  const id = result?.product?.id;
  if (typeof id !== "string") throw new RetryableChannelError("shopify answered without a product id", { channel: CHANNEL });
  return { remoteId: id, remoteUrl: `${baseUrl}/admin/products/${numericId(id)}` };
}

export function createShopifyAdapter(timeoutMs: number): ChannelAdapter {
  return { channel: CHANNEL, publish: (input) => publish(input, timeoutMs) };
}
