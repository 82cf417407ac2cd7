// Etsy: Open API v3 (draft listing, inventory, uploaded images), OAuth 2 with PKCE and rotating
// refresh tokens.
import { Type } from "typebox";
import { defineChannel } from "../channel-definition.js";
import { productPreflight } from "../preflight.js";
import { etsyProductProblems } from "./etsy-bodies.js";
import { createEtsyAdapter } from "./etsy-adapter.js";
import { etsyConnect } from "./etsy-connect.js";
import { etsyApp, EtsyEnvSchema } from "./etsy-env.js";
import { EtsySettingsSchema } from "./etsy-settings.js";

const Param = (description: string) => Type.Optional(Type.String({ description }));

export const etsyDefinition = defineChannel({
  name: "etsy",
  displayName: "Etsy",
  env: EtsyEnvSchema,
  app: etsyApp,
  settings: EtsySettingsSchema,
  connectQuery: Type.Object({}),
  callbackQuery: Type.Object({
    code: Param("The authorization code"),
    state: Param("The state from the connect redirect"),
    error: Param("Set when the shop owner refused (access_denied)"),
  }),
  adapter: createEtsyAdapter,
  preflight: productPreflight(etsyProductProblems),
  connect: etsyConnect,
});
