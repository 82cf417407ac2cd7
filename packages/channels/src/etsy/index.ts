// Etsy: Open API v3 (draft listing, inventory, uploaded images), OAuth 2 with PKCE and rotating refresh tokens.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelDefinition, ChannelOptions } from "../registry.js";
import { createEtsyAdapter } from "./etsy-adapter.js";
import { etsyConnect } from "./etsy-connect.js";
import { ETSY_CONNECT_FIELDS, ETSY_SETTINGS_FIELDS } from "./etsy-fields.js";
import { checkEtsySettings } from "./etsy-settings.js";

export function etsyChannel(config: ChannelsConfig, options: ChannelOptions): ChannelDefinition {
  return {
    channel: "etsy", displayName: "Etsy", adapter: createEtsyAdapter(config, options.timeoutMs), connect: etsyConnect(config), checkSettings: checkEtsySettings,
    connectFields: ETSY_CONNECT_FIELDS, settingsFields: ETSY_SETTINGS_FIELDS,
  };
}

