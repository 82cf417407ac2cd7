import { Type, type Static } from "typebox";
import { envOptional, envText, trimSlash } from "../channel-env.js";

export const ShopifyEnvSchema = Type.Object({
  SHOPIFY_CLIENT_ID: envOptional(),
  SHOPIFY_CLIENT_SECRET: envOptional(),
  SHOPIFY_SCOPES: envText("write_products"),
  SHOPIFY_SHOP_URL: envText(
    "https://{shop}",
    "A shop's address; `{shop}` becomes its myshopify.com domain",
  ),
});

export const shopifyApp = (env: Static<typeof ShopifyEnvSchema>) => ({
  clientId: env.SHOPIFY_CLIENT_ID,
  clientSecret: env.SHOPIFY_CLIENT_SECRET,
  scopes: env.SHOPIFY_SCOPES,
  shopUrl: trimSlash(env.SHOPIFY_SHOP_URL),
});

export type ShopifyApp = ReturnType<typeof shopifyApp>;
