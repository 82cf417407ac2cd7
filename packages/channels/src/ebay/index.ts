// eBay: Sell Inventory API (items, groups, offers, publishing), OAuth code grant with refresh
// tokens.
import { Type } from "typebox";
import { defineChannel } from "../channel-definition.js";
import { productPreflight } from "../preflight.js";
import { ebayProductProblems } from "./ebay-checks.js";
import { createEbayAdapter } from "./ebay-adapter.js";
import { ebayConnect } from "./ebay-connect.js";
import { ebayApp, EbayEnvSchema } from "./ebay-env.js";
import { EbaySettingsSchema, ebaySettingsRules } from "./ebay-settings.js";

const Param = (description: string) => Type.Optional(Type.String({ description }));

export const ebayDefinition = defineChannel({
  name: "ebay",
  displayName: "eBay",
  env: EbayEnvSchema,
  app: ebayApp,
  settings: EbaySettingsSchema,
  settingsRules: ebaySettingsRules,
  connectQuery: Type.Object({}),
  callbackQuery: Type.Object({
    code: Param("The authorization code"),
    state: Param("The state from the connect redirect"),
    error: Param("Set when the seller refused (access_denied)"),
  }),
  adapter: createEbayAdapter,
  preflight: productPreflight(ebayProductProblems),
  connect: ebayConnect,
});
