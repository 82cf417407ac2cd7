// Publishes through Shopify's Admin GraphQL API with productSet as the upsert: by the stored
// product id when we have one, else by the id of a product found by SKU (adopted), else by our
// own handle for the product (created, or found if an earlier attempt made it). Shopify answers
// business errors and throttling with HTTP 200, so the body is classified here.
import { Type, type Static, type TSchema } from "typebox";
import { randomUUID } from "node:crypto";
import type {
  ChannelAdapter,
  DestinationTarget,
  EndListingInput,
  OfferUpdateInput,
  PublishInput,
  PublishOutcome,
} from "../adapter.js";
import { checkAnswer, okAnswer } from "../channel-answer.js";
import { channelCaller, type ChannelCall } from "../channel-http.js";
import {
  missingField,
  requiredBaseUrl,
  requiredString,
  toChannelAmount,
} from "../destination-fields.js";
import { ChannelWaitError, GiveUpChannelError, RetryableChannelError } from "../errors.js";
import { throwFirst } from "../preflight.js";
import { unitsOf } from "../quantity.js";
import {
  API_VERSION,
  knowsQuantity,
  PRIMARY_LOCATION,
  PRODUCT_BY_SKU,
  PRODUCT_DELETE,
  PRODUCT_OFFER,
  PRODUCT_SET,
  productSetInput,
  SET_QUANTITIES,
  shopifyHandle,
  shopifyProductProblems,
  skuQuery,
  VARIANT_PRICES,
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

const UserErrors = Type.Array(
  Type.Object({
    message: Type.String(),
    field: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
    code: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
);
type UserErrors = Static<typeof UserErrors>;

const Location = Type.Union([Type.Object({ id: Type.String() }), Type.Null()]);
const PrimaryLocationData = Type.Object({ location: Location });
const ProductOfferData = Type.Object({
  product: Type.Union([
    Type.Object({
      variants: Type.Object({
        nodes: Type.Array(
          Type.Object({
            id: Type.String(),
            sku: Type.Optional(Type.Union([Type.String(), Type.Null()])),
            inventoryItem: Type.Object({ id: Type.String() }),
          }),
        ),
      }),
    }),
    Type.Null(),
  ]),
  location: Location,
});
const VariantPricesData = Type.Object({
  productVariantsBulkUpdate: Type.Object({ userErrors: UserErrors }),
});
const SetQuantitiesData = Type.Object({
  inventorySetQuantities: Type.Object({ userErrors: UserErrors }),
});
const ProductDeleteData = Type.Object({
  productDelete: Type.Object({ userErrors: UserErrors }),
});

/** userErrors as the give-up they are: Shopify refused the change. */
function throwUserErrors(userErrors: UserErrors, what: string): void {
  if (userErrors.length === 0) return;
  const said = userErrors
    .map((e) => e.message)
    .join("; ")
    .slice(0, 300);
  throw new GiveUpChannelError(`shopify refused the ${what}: ${said}`, {
    channel: CHANNEL,
    kind: "validation",
    channelMessage: said,
    field: userErrors[0]!.field?.join("."),
  });
}

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

function shopClient(destination: DestinationTarget, signal: AbortSignal, timeoutMs: number) {
  const baseUrl = requiredBaseUrl(CHANNEL, destination);
  const token = requiredString(CHANNEL, destination, "accessToken");
  return {
    baseUrl,
    graphql: graphqlClient(channelCaller(CHANNEL, signal, timeoutMs), baseUrl, token),
  };
}

function noLocation(): GiveUpChannelError {
  return new GiveUpChannelError("shopify: the shop has no location to hold inventory", {
    channel: CHANNEL,
    kind: "validation",
    channelMessage: "The shop has no location to hold inventory",
  });
}

async function publish(input: PublishInput, timeoutMs: number): Promise<PublishOutcome> {
  const { product, destination } = input;
  throwFirst(shopifyProductProblems(product));
  const { baseUrl, graphql } = shopClient(destination, input.signal, timeoutMs);
  // Quantities are set at the shop's primary location, asked first when the catalog knows any.
  let locationId: string | null = null;
  if (knowsQuantity(product)) {
    const { location } = await graphql(PRIMARY_LOCATION, {}, PrimaryLocationData, "location");
    if (!location) throw noLocation();
    locationId = location.id;
  }
  const productInput = productSetInput(product, locationId);

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

/**
 * The cheap route: the product's variants (with their inventory items) and the primary location
 * read once, then productVariantsBulkUpdate with the prices and, when the catalog knows
 * quantities, inventorySetQuantities with them. Catalog variants are matched by SKU; a product
 * without options has Shopify's one default variant.
 */
async function updateOffer(input: OfferUpdateInput, timeoutMs: number): Promise<void> {
  const { product } = input;
  const { graphql } = shopClient(input.destination, input.signal, timeoutMs);
  const offer = await graphql(PRODUCT_OFFER, { id: input.remoteId }, ProductOfferData, "product");
  if (!offer.product)
    throw new GiveUpChannelError(`shopify has no product ${input.remoteId}: publish it again`, {
      channel: CHANNEL,
      kind: "validation",
      channelMessage: "The product no longer exists in the shop",
    });
  const remote = offer.product.variants.nodes;
  const withOptions = product.variants.some((v) => Object.keys(v.options ?? {}).length > 0);
  const pairs = withOptions
    ? product.variants.flatMap((v) => {
        const found = remote.find((r) => !!v.sku && r.sku === v.sku);
        return found ? [{ remote: found, variant: v }] : [];
      })
    : remote.slice(0, 1).map((r) => ({ remote: r, variant: undefined }));
  const price = (amount: string | null | undefined) =>
    toChannelAmount((amount?.trim() || product.priceAmount)!);
  if (!product.priceAmount?.trim() && pairs.some((p) => !p.variant?.priceAmount?.trim()))
    throw missingField(CHANNEL, product, "priceAmount");
  const prices = await graphql(
    VARIANT_PRICES,
    {
      productId: input.remoteId,
      variants: pairs.map((p) => ({ id: p.remote.id, price: price(p.variant?.priceAmount) })),
    },
    VariantPricesData,
    "productVariantsBulkUpdate result",
  );
  throwUserErrors(prices.productVariantsBulkUpdate.userErrors, "prices");
  if (!knowsQuantity(product)) return;
  if (!offer.location) throw noLocation();
  const locationId = offer.location.id;
  const quantities = await graphql(
    SET_QUANTITIES,
    {
      key: randomUUID(),
      input: {
        name: "available",
        reason: "correction",
        quantities: pairs.map((p) => ({
          inventoryItemId: p.remote.inventoryItem.id,
          locationId,
          quantity: unitsOf(product, p.variant),
          changeFromQuantity: null,
        })),
      },
    },
    SetQuantitiesData,
    "inventorySetQuantities result",
  );
  throwUserErrors(quantities.inventorySetQuantities.userErrors, "quantities");
}

/**
 * productDelete rather than archiving: an archived product would stay in the shop under our SKUs
 * and handle, and a later publish (productSet, which does not touch the status) would revise it
 * while it stays archived; deleted, a later publish creates it anew. A product Shopify no longer
 * has is ended already.
 */
async function endListing(input: EndListingInput, timeoutMs: number): Promise<void> {
  const { graphql } = shopClient(input.destination, input.signal, timeoutMs);
  const result = await graphql(
    PRODUCT_DELETE,
    { input: { id: input.remoteId } },
    ProductDeleteData,
    "productDelete result",
  );
  const { userErrors } = result.productDelete;
  if (userErrors.every((e) => /does not exist|not found/i.test(e.message))) return;
  throwUserErrors(userErrors, "delete");
}

export function createShopifyAdapter(timeoutMs: number): ChannelAdapter {
  return {
    channel: CHANNEL,
    publish: (input) => publish(input, timeoutMs),
    updateOffer: (input) => updateOffer(input, timeoutMs),
    endListing: (input) => endListing(input, timeoutMs),
  };
}
