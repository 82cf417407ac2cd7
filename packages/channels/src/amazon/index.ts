// Amazon: Listings Items 2021-08-01 (put for a new SKU, patch for changes, parent and child SKUs
// for variations), attributes checked against the product type's definition, Amazon's website
// authorization workflow with LWA refresh tokens.
import { Type } from "typebox";
import { defineChannel } from "../channel-definition.js";
import { createAmazonAdapter } from "./amazon-adapter.js";
import { amazonConnect } from "./amazon-connect.js";
import { amazonNotifications } from "./amazon-notifications.js";
import { amazonPreflight } from "./amazon-preflight.js";
import { amazonApp, AmazonEnvSchema } from "./amazon-env.js";
import { AmazonSettingsSchema, amazonSettingsRules } from "./amazon-settings.js";

const Param = (description: string) => Type.Optional(Type.String({ description }));

export const amazonDefinition = defineChannel({
  name: "amazon",
  displayName: "Amazon",
  env: AmazonEnvSchema,
  app: amazonApp,
  settings: AmazonSettingsSchema,
  settingsRules: amazonSettingsRules,
  connectQuery: Type.Object({
    marketplaceId: Type.Optional(
      Type.String({
        title: "Marketplace id",
        description:
          "The Amazon store to list on (default ATVPDKIKX0DER, amazon.com); can be changed in the settings later",
        examples: ["ATVPDKIKX0DER"],
      }),
    ),
  }),
  callbackQuery: Type.Object({
    state: Param("The state from the connect redirect"),
    selling_partner_id: Param("The seller's merchant token"),
    spapi_oauth_code: Param("The LWA authorization code, exchanged for a refresh token"),
    mws_auth_token: Param("Only for apps that also used MWS; ignored"),
    error: Param("Set when the seller refused"),
  }),
  adapter: createAmazonAdapter,
  // The product's checks, then Amazon's own verdict: putListingsItem with mode=VALIDATION_PREVIEW.
  preflight: amazonPreflight,
  connect: amazonConnect,
  // Listing status and issues changes, relayed from the app's SQS queue.
  notifications: amazonNotifications,
  // Listings Items (getListingsItem, putListingsItem, patchListingsItem) allows 5 requests per
  // second with a burst of 10 per selling partner. The worker's gate counts publishes, and one
  // publish makes a GET and a put or patch per SKU (parent and each child): one publish a second,
  // two at most back to back, keeps a single-SKU product at 2 requests a second (4 in a burst)
  // and a parent with up to one child within the documented limits; larger variation families
  // can still meet a 429, which waits through the channel wait as before.
  rateLimit: { perSecond: 1, burst: 2 },
});
