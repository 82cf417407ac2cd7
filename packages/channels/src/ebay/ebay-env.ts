import { Type, type Static } from "typebox";
import { envOptional, envText, trimSlash } from "../channel-env.js";

export const EbayEnvSchema = Type.Object({
  EBAY_CLIENT_ID: envOptional(),
  EBAY_CLIENT_SECRET: envOptional(),
  EBAY_RU_NAME: envOptional(
    "eBay's redirect URL name (RuName), registered with eBay to point at the callback",
  ),
  EBAY_AUTH_URL: envText("https://auth.ebay.com/oauth2/authorize"),
  EBAY_API_URL: envText("https://api.ebay.com"),
  // Listing (sell.inventory); reading the seller's business policies (sell.account.readonly) and
  // eBay's categories (api_scope) for the settings form.
  EBAY_SCOPES: envText(
    "https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.account.readonly https://api.ebay.com/oauth/api_scope",
  ),
});

export const ebayApp = (env: Static<typeof EbayEnvSchema>) => ({
  clientId: env.EBAY_CLIENT_ID,
  clientSecret: env.EBAY_CLIENT_SECRET,
  ruName: env.EBAY_RU_NAME,
  authUrl: env.EBAY_AUTH_URL.trim(),
  apiUrl: trimSlash(env.EBAY_API_URL),
  scopes: env.EBAY_SCOPES,
});

export type EbayApp = ReturnType<typeof ebayApp>;
