// The product type's definition (Product Type Definitions API 2020-09-01): its JSON Schema, found
// through the definition's `schema.link`, names the attributes a listing must have. We check the
// attributes we built against it before sending anything, so a product that lacks one gives up
// naming it instead of coming back INVALID; attributes the schema does not know are left out.
import { type ChannelCall, jsonBody } from "../channel-http.js";
import { GiveUpChannelError, RetryableChannelError } from "../errors.js";
import { throwIfAmazonFailed } from "./amazon-answers.js";
import { type AmazonListingItem, OFFER_ATTRIBUTES } from "./amazon-attributes.js";
import type { AmazonSettings } from "./amazon-settings.js";

export interface ProductTypeSchema {
  required: string[];
  /** Null when the schema lists no properties (then nothing is left out). */
  properties: Set<string> | null;
}

// Definitions change rarely; Amazon's own guidance is to cache them (the checksum says when they changed).
const TTL_MS = 60 * 60_000;
const cache = new Map<string, { schema: ProductTypeSchema; until: number }>();

export async function productTypeSchema(call: ChannelCall, api: string, token: string, s: AmazonSettings): Promise<ProductTypeSchema> {
  const key = `${api}|${s.productType}|${s.marketplaceId}|${s.languageTag}`;
  const cached = cache.get(key);
  if (cached && cached.until > Date.now()) return cached.schema;
  const query = new URLSearchParams({ marketplaceIds: s.marketplaceId, sellerId: s.sellerId, requirements: "LISTING", locale: "DEFAULT" });
  const answer = await call({ method: "GET", url: `${api}/definitions/2020-09-01/productTypes/${encodeURIComponent(s.productType)}?${query}`, headers: { "x-amz-access-token": token } });
  if (answer.status === 404) {
    throw new GiveUpChannelError(`amazon has no product type ${s.productType} in marketplace ${s.marketplaceId}`, { channel: "amazon", status: 404, kind: "validation", field: "productType", channelMessage: `productType ${s.productType} is not an Amazon product type of this marketplace` });
  }
  throwIfAmazonFailed(answer);
  const definition = jsonBody("amazon", answer) as { schema?: { link?: { resource?: string } } };
  const resource = definition.schema?.link?.resource;
  if (!resource) throw new RetryableChannelError(`amazon gave the ${s.productType} definition without a schema link`, { channel: "amazon" });
  // The link is a pre-signed download: it carries its own authorization.
  const download = await call({ method: "GET", url: resource });
  throwIfAmazonFailed(download);
  const document = jsonBody("amazon", download) as { required?: unknown; properties?: Record<string, unknown> };
  const schema: ProductTypeSchema = {
    required: Array.isArray(document.required) ? document.required.filter((r): r is string => typeof r === "string") : [],
    properties: document.properties ? new Set(Object.keys(document.properties)) : null,
  };
  cache.set(key, { schema, until: Date.now() + TTL_MS });
  return schema;
}

/** The items with the attributes the product type knows; gives up naming the first required attribute an item lacks. */
export function fitToProductType(items: AmazonListingItem[], schema: ProductTypeSchema, productType: string): AmazonListingItem[] {
  return items.map((item) => {
    const attributes = schema.properties ? Object.fromEntries(Object.entries(item.attributes).filter(([name]) => schema.properties!.has(name))) : item.attributes;
    // A parent SKU carries no offer; Amazon requires the offer only of what can be bought.
    const required = schema.required.filter((name) => !(item.role === "parent" && OFFER_ATTRIBUTES.includes(name)));
    const missing = required.filter((name) => !attributes[name]);
    if (missing.length > 0) {
      const said = `${productType} requires ${missing.join(", ")}, which the product does not give`;
      throw new GiveUpChannelError(`amazon: SKU ${item.sku}: ${said}`, { channel: "amazon", kind: "validation", field: missing[0], channelMessage: said });
    }
    return { ...item, attributes };
  });
}
