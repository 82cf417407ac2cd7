import { field, type ChannelField } from "../channel-fields.js";

// The connect request's `shop` (read by shopifyConnect's start); Shopify needs no settings.
export const SHOPIFY_CONNECT_FIELDS: ChannelField[] = [
  field("shop", "Shop domain", "Your shop's myshopify.com address (Settings > Domains in Shopify admin)", { placeholder: "acme.myshopify.com" }),
];
export const SHOPIFY_SETTINGS_FIELDS: ChannelField[] = [];
