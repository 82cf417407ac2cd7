import { Type } from "typebox";

export const ChannelParamsSchema = Type.Object({
  channel: Type.String({ maxLength: 32, description: "shopify, ebay, etsy or woocommerce" }),
});

// Channels put their own parameters on the callback (code, state, hmac, shop, timestamp, host,
// error...): accept any, as bounded strings.
export const CallbackQuerySchema = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 4096 }), {
  description: "The channel's redirect parameters, passed on as they came (code, state, and per channel hmac, shop, error, success, user_id)",
});

export const ConnectQuerySchema = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 2048 }), {
  description: "Per channel: `shop` (Shopify, e.g. acme.myshopify.com), `storeUrl` (WooCommerce, the store's https address)",
});

// WooCommerce's server posts { key_id, user_id, consumer_key, consumer_secret, key_permissions }.
export const DeliveredKeysSchema = Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 4096 }), Type.Number()]));

export const ConnectedSchema = Type.Object({
  destination: Type.Object({
    id: Type.String(), channel: Type.String(), name: Type.String(), health: Type.String(), connectedAt: Type.String({ format: "date-time" }),
  }),
  reconnected: Type.Boolean({ description: "true when this store was already connected: its tokens were replaced, its settings and listings kept" }),
});
