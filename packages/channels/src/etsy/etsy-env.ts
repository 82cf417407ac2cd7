import { Type, type Static } from "typebox";
import { envOptional, envText, trimSlash } from "../channel-env.js";

export const EtsyEnvSchema = Type.Object({
  ETSY_CLIENT_ID: envOptional(
    "The app's keystring (sent as `x-api-key` and as the OAuth client id)",
  ),
  ETSY_CLIENT_SECRET: envOptional(
    "The app's shared secret, when Etsy asks for `x-api-key: keystring:secret`",
  ),
  ETSY_CONNECT_URL: envText("https://www.etsy.com/oauth/connect"),
  ETSY_API_URL: envText("https://api.etsy.com"),
  ETSY_SCOPES: envText("listings_r listings_w shops_r"),
});

export const etsyApp = (env: Static<typeof EtsyEnvSchema>) => ({
  clientId: env.ETSY_CLIENT_ID,
  clientSecret: env.ETSY_CLIENT_SECRET,
  connectUrl: env.ETSY_CONNECT_URL.trim(),
  apiUrl: trimSlash(env.ETSY_API_URL),
  scopes: env.ETSY_SCOPES,
});

export type EtsyApp = ReturnType<typeof etsyApp>;
