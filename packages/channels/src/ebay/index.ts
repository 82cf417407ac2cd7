// eBay: Sell Inventory API (items, groups, offers, publishing), OAuth code grant with refresh tokens.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelDefinition, ChannelOptions } from "../registry.js";
import { createEbayAdapter } from "./ebay-adapter.js";
import { ebayConnect } from "./ebay-connect.js";
import { EBAY_CONNECT_FIELDS, EBAY_SETTINGS_FIELDS } from "./ebay-fields.js";
import { checkEbaySettings } from "./ebay-settings.js";

export function ebayChannel(config: ChannelsConfig, options: ChannelOptions): ChannelDefinition {
  return {
    channel: "ebay", displayName: "eBay", adapter: createEbayAdapter(config, options.timeoutMs), connect: ebayConnect(config), checkSettings: checkEbaySettings,
    connectFields: EBAY_CONNECT_FIELDS, settingsFields: EBAY_SETTINGS_FIELDS,
  };
}

