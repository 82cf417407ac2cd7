// Shopify: Admin GraphQL (productSet as the upsert), OAuth with a signed callback.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelDefinition, ChannelOptions } from "../registry.js";
import { createShopifyAdapter } from "./shopify-adapter.js";
import { shopifyConnect } from "./shopify-connect.js";
import { SHOPIFY_CONNECT_FIELDS, SHOPIFY_SETTINGS_FIELDS } from "./shopify-fields.js";

export function shopifyChannel(config: ChannelsConfig, options: ChannelOptions): ChannelDefinition {
  return {
    channel: "shopify", displayName: "Shopify", adapter: createShopifyAdapter(options.timeoutMs), connect: shopifyConnect(config), checkSettings: () => [],
    connectFields: SHOPIFY_CONNECT_FIELDS, settingsFields: SHOPIFY_SETTINGS_FIELDS,
  };
}

export { shopifyAccountFromToken } from "./shopify-connect.js";
export { shopifyShopDomain, shopUrl } from "./shop-domain.js";
