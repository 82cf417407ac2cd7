import { Type } from "typebox";

export const ChannelParamsSchema = Type.Object({
  channel: Type.String({ maxLength: 32, description: "shopify, ebay, etsy or woocommerce" }),
});

const Param = (description: string) => Type.Optional(Type.String({ maxLength: 4096, description }));

// Channels put their own parameters on the callback: the known ones are listed for the
// documentation, and any other is accepted as a bounded string and passed on to the channel's check.
export const CallbackQuerySchema = Type.Object({
  state: Param("The state from the connect redirect (all channels but WooCommerce)"),
  code: Param("The authorization code (Shopify, eBay, Etsy)"),
  error: Param("Set when the merchant refused (access_denied)"),
  hmac: Param("Shopify: the signature of the other parameters"),
  shop: Param("Shopify: the shop's myshopify.com domain"),
  user_id: Param("WooCommerce: carries the state"),
  success: Param("WooCommerce: 1 when the store owner approved"),
}, { additionalProperties: Type.String({ maxLength: 4096 }) });

export const ConnectQuerySchema = Type.Object({
  shop: Param("Shopify: the shop's domain, e.g. acme.myshopify.com"),
  storeUrl: Param("WooCommerce: the store's address, e.g. https://shop.example"),
}, { additionalProperties: Type.String({ maxLength: 2048 }) });

// WooCommerce's server posts { key_id, user_id, consumer_key, consumer_secret, key_permissions }.
export const DeliveredKeysSchema = Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 4096 }), Type.Number()]));

export const ConnectedSchema = Type.Object({
  destination: Type.Object({
    id: Type.String(), channel: Type.String(), name: Type.String(), health: Type.String(), connectedAt: Type.String({ format: "date-time" }),
  }),
  reconnected: Type.Boolean({ description: "true when this store was already connected: its tokens were replaced, its settings and listings kept" }),
});
