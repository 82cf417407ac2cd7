import { Type, type Static } from "typebox";
import { Bool, Str } from "./env.js";

// The sales channels' application credentials and addresses. Every base URL is configuration,
// so tests and the demo point them at local stand-ins. An empty client id leaves that channel
// unconfigured: connecting to it answers 503 naming the variables to set.
const Optional = () => Type.String({ default: "" });

export const ChannelsEnvSchema = Type.Object({
  /** Where browsers reach the gateway; the channels redirect back to `<PUBLIC_URL>/api/integrations/<channel>/callback`. */
  PUBLIC_URL: Str("http://127.0.0.1:3000"),
  /** Allow store URLs on private or loopback addresses (WooCommerce stores in development and tests). */
  CHANNEL_PRIVATE_URLS: Bool(false),
  SHOPIFY_CLIENT_ID: Optional(),
  SHOPIFY_CLIENT_SECRET: Optional(),
  SHOPIFY_SCOPES: Str("write_products"),
  /** A shop's address; `{shop}` becomes its myshopify.com domain. */
  SHOPIFY_SHOP_URL: Str("https://{shop}"),
  EBAY_CLIENT_ID: Optional(),
  EBAY_CLIENT_SECRET: Optional(),
  /** eBay's redirect URL name (RuName), registered with eBay to point at the callback. */
  EBAY_RU_NAME: Optional(),
  EBAY_AUTH_URL: Str("https://auth.ebay.com/oauth2/authorize"),
  EBAY_API_URL: Str("https://api.ebay.com"),
  EBAY_SCOPES: Str("https://api.ebay.com/oauth/api_scope/sell.inventory"),
  /** The app's keystring (sent as `x-api-key` and as the OAuth client id). */
  ETSY_CLIENT_ID: Optional(),
  /** The app's shared secret, when Etsy asks for `x-api-key: keystring:secret`. */
  ETSY_CLIENT_SECRET: Optional(),
  ETSY_CONNECT_URL: Str("https://www.etsy.com/oauth/connect"),
  ETSY_API_URL: Str("https://api.etsy.com"),
  ETSY_SCOPES: Str("listings_r listings_w shops_r"),
  /** The name a WooCommerce store owner sees when asked to grant keys. */
  WOOCOMMERCE_APP_NAME: Str("Catalog Service"),
});

type ChannelsEnv = Static<typeof ChannelsEnvSchema>;

export interface ChannelsConfig {
  publicUrl: string;
  allowPrivateStoreUrls: boolean;
  shopify: { clientId: string; clientSecret: string; scopes: string; shopUrl: string };
  ebay: { clientId: string; clientSecret: string; ruName: string; authUrl: string; apiUrl: string; scopes: string };
  etsy: { clientId: string; clientSecret: string; connectUrl: string; apiUrl: string; scopes: string };
  woocommerce: { appName: string };
}

const trimSlash = (url: string) => url.trim().replace(/\/+$/, "");

/** The channel part of an app's configuration, grouped per channel. */
export function channelsConfig(env: ChannelsEnv): ChannelsConfig {
  return {
    publicUrl: trimSlash(env.PUBLIC_URL),
    allowPrivateStoreUrls: env.CHANNEL_PRIVATE_URLS,
    shopify: { clientId: env.SHOPIFY_CLIENT_ID, clientSecret: env.SHOPIFY_CLIENT_SECRET, scopes: env.SHOPIFY_SCOPES, shopUrl: trimSlash(env.SHOPIFY_SHOP_URL) },
    ebay: {
      clientId: env.EBAY_CLIENT_ID, clientSecret: env.EBAY_CLIENT_SECRET, ruName: env.EBAY_RU_NAME,
      authUrl: env.EBAY_AUTH_URL.trim(), apiUrl: trimSlash(env.EBAY_API_URL), scopes: env.EBAY_SCOPES,
    },
    etsy: {
      clientId: env.ETSY_CLIENT_ID, clientSecret: env.ETSY_CLIENT_SECRET, connectUrl: env.ETSY_CONNECT_URL.trim(),
      apiUrl: trimSlash(env.ETSY_API_URL), scopes: env.ETSY_SCOPES,
    },
    woocommerce: { appName: env.WOOCOMMERCE_APP_NAME },
  };
}
