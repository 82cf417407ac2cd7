import { Type, type Static } from "typebox";
import { envOptional, envText, trimSlash } from "../channel-env.js";

export const AmazonEnvSchema = Type.Object({
  AMAZON_LWA_CLIENT_ID: envOptional(
    "The LWA client id of the app (Developer Central > app > LWA credentials)",
  ),
  AMAZON_LWA_CLIENT_SECRET: envOptional("The LWA client secret of the app"),
  AMAZON_APP_ID: envOptional(
    "The SP-API application id (amzn1.sp.solution...), sent as application_id to the consent page",
  ),
  AMAZON_SELLER_CENTRAL_URL: envText(
    "https://sellercentral.amazon.com",
    "Seller Central of the sellers' region: its /apps/authorize/consent page starts the authorization",
  ),
  AMAZON_LWA_TOKEN_URL: envText("https://api.amazon.com/auth/o2/token", "The LWA token endpoint"),
  AMAZON_SPAPI_URL: envText(
    "https://sellingpartnerapi-na.amazon.com",
    "The SP-API endpoint of the sellers' region",
  ),
  AMAZON_DRAFT_APP: envText(
    "true",
    '"true" while the app is a draft: the consent URL then carries version=beta',
  ),
  AMAZON_MARKETPLACE_ID: envText(
    "ATVPDKIKX0DER",
    "The marketplace a newly connected seller lists on until they choose another",
  ),
  AMAZON_NOTIFICATIONS_SECRET: envOptional(
    "The secret a relay of Amazon's listing notifications sends as `Authorization: Bearer` to /api/integrations/amazon/notifications; empty: none are taken",
  ),
});

export const amazonApp = (env: Static<typeof AmazonEnvSchema>) => ({
  clientId: env.AMAZON_LWA_CLIENT_ID,
  clientSecret: env.AMAZON_LWA_CLIENT_SECRET,
  appId: env.AMAZON_APP_ID,
  sellerCentralUrl: trimSlash(env.AMAZON_SELLER_CENTRAL_URL),
  tokenUrl: env.AMAZON_LWA_TOKEN_URL.trim(),
  apiUrl: trimSlash(env.AMAZON_SPAPI_URL),
  draft: env.AMAZON_DRAFT_APP.trim().toLowerCase() === "true",
  marketplaceId: env.AMAZON_MARKETPLACE_ID.trim(),
  notificationsSecret: env.AMAZON_NOTIFICATIONS_SECRET.trim(),
});

export type AmazonApp = ReturnType<typeof amazonApp>;
