// Publishes through Shopify's Admin GraphQL API with productSet as the upsert: by the stored
// product id when we have one, else by the id of a product found by SKU (adopted), else by our
// own handle for the product (created, or found if an earlier attempt made it). Shopify answers
// business errors and throttling with HTTP 200, so the body is classified here.
import { Type, type Static, type TSchema } from "typebox";
import type { ChannelAdapter, PublishInput, PublishOutcome } from "../adapter.js";
import { checkAnswer, okAnswer } from "../channel-answer.js";
import { channelCaller, type ChannelCall } from "../channel-http.js";
import { requiredBaseUrl, requiredString } from "../destination-fields.js";
import { ChannelWaitError, GiveUpChannelError, RetryableChannelError } from "../errors.js";
import {
  API_VERSION,
  PRODUCT_BY_SKU,
  PRODUCT_SET,
  productSetInput,
  shopifyHandle,
  skuQuery,
} from "./shopify-documents.js";

const CHANNEL = "shopify";

// The parts of Shopify's answers we read; the rest (and any field Shopify adds) passes unread.
const QueryCost = Type.Object({
  requestedQueryCost: Type.Optional(Type.Number()),
  throttleStatus: Type.Optional(
    Type.Object({
      restoreRate: Type.Optional(Type.Number()),
      currentlyAvailable: Type.Optional(Type.Number()),
    }),
  ),
});
export type QueryCost = Static<typeof QueryCost>;

const GraphqlAnswer = Type.Object({
  data: Type.Optional(Type.Unknown()),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        message: Type.Optional(Type.String()),
        extensions: Type.Optional(
          Type.Object({ code: Type.Optional(Type.String()), cost: Type.Optional(QueryCost) }),
        ),
      }),
    ),
  ),
  extensions: Type.Optional(Type.Object({ cost: Type.Optional(QueryCost) })),
});

const ProductBySkuData = Type.Object({
  productVariants: Type.Object({
    nodes: Type.Array(Type.Object({ product: Type.Object({ id: Type.String() }) })),
  }),
});

const ProductSetData = Type.Object({
  productSet: Type.Object({
    product: Type.Optional(Type.Union([Type.Object({ id: Type.String() }), Type.Null()])),
    userErrors: Type.Array(
      Type.Object({
        message: Type.String(),
        field: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
        code: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      }),
    ),
  }),
});

/**
 * Seconds until the bucket holds what the query costs, from Shopify's throttleStatus (at least 1
 * s).
 */
export function throttleWaitMs(cost: QueryCost | undefined): number | undefined {
  const status = cost?.throttleStatus;
  if (!status || typeof status.restoreRate !== "number" || status.restoreRate <= 0)
    return undefined;
  const missing = Number(cost.requestedQueryCost ?? 0) - Number(status.currentlyAvailable ?? 0);
  return Math.max(1_000, Math.ceil((missing / status.restoreRate) * 1000));
}

function graphqlClient(call: ChannelCall, baseUrl: string, token: string) {
  return async <T extends TSchema>(
    query: string,
    variables: Record<string, unknown>,
    dataSchema: T,
    what: string,
  ): Promise<Static<T>> => {
    const answer = await call({
      method: "POST",
      url: `${baseUrl}/admin/api/${API_VERSION}/graphql.json`,
      headers: { "x-shopify-access-token": token, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const body = okAnswer(CHANNEL, answer, GraphqlAnswer, "GraphQL answer");
    const errors = body.errors ?? [];
    const throttled = errors.find((e) => e.extensions?.code === "THROTTLED");
    if (throttled) {
      const retryAfterMs = throttleWaitMs(throttled.extensions?.cost ?? body.extensions?.cost);
      throw new ChannelWaitError(`shopify asked to wait: ${throttled.message ?? "throttled"}`, {
        channel: CHANNEL,
        status: answer.status,
        retryAfterMs,
      });
    }
    if (errors.length > 0) {
      const said = errors
        .map((e) => e.message)
        .filter(Boolean)
        .join("; ")
        .slice(0, 300);
      throw new GiveUpChannelError(`shopify refused the request: ${said}`, {
        channel: CHANNEL,
        status: answer.status,
        kind: "validation",
        channelMessage: said,
      });
    }
    if (!body.data || typeof body.data !== "object")
      throw new RetryableChannelError(`shopify answered ${answer.status} without data`, {
        channel: CHANNEL,
        status: answer.status,
      });
    return checkAnswer(CHANNEL, answer.status, dataSchema, body.data, what);
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
    const found = await graphql(
      PRODUCT_BY_SKU,
      { query: skuQuery(lookupSku) },
      ProductBySkuData,
      "product lookup by SKU",
    );
    productId = found.productVariants.nodes[0]?.product.id ?? null;
  }
  // A known product is updated by id (its handle left as the merchant has it); otherwise the
  // product is upserted by our handle, so a repeated first publish cannot make a second product.
  const set = async (identifier: Record<string, unknown>, input: Record<string, unknown>) =>
    (await graphql(PRODUCT_SET, { identifier, input }, ProductSetData, "productSet result"))
      .productSet;
  const handle = shopifyHandle(product);
  const byHandle = () => set({ handle }, { ...productInput, handle });
  let result = productId ? await set({ id: productId }, productInput) : await byHandle();
  // Deleted in the shop since we stored its id: publish it anew.
  if (productId && result.userErrors.some((e) => e.code === "PRODUCT_DOES_NOT_EXIST"))
    result = await byHandle();
  const { userErrors } = result;
  if (userErrors.length > 0) {
    const said = userErrors
      .map((e) => e.message)
      .join("; ")
      .slice(0, 300);
    const field = userErrors[0]!.field?.join(".");
    throw new GiveUpChannelError(`shopify refused the product: ${said}`, {
      channel: CHANNEL,
      kind: "validation",
      channelMessage: said,
      field,
    });
  }
  const id = result.product?.id;
  if (typeof id !== "string")
    throw new RetryableChannelError("shopify answered without a product id", { channel: CHANNEL });
  return { remoteId: id, remoteUrl: `${baseUrl}/admin/products/${numericId(id)}` };
}

export function createShopifyAdapter(timeoutMs: number): ChannelAdapter {
  return { channel: CHANNEL, publish: (input) => publish(input, timeoutMs) };
}
