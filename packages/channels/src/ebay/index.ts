// eBay: Sell Inventory API (items, groups, offers, publishing), OAuth code grant with refresh tokens, and its stand-in.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelDefinition, ChannelOptions } from "../registry.js";
import { createEbayAdapter } from "./ebay-adapter.js";
import { ebayConnect } from "./ebay-connect.js";
import { checkEbaySettings } from "./ebay-settings.js";

export function ebayChannel(config: ChannelsConfig, options: ChannelOptions): ChannelDefinition {
  return { channel: "ebay", adapter: createEbayAdapter(config, options.timeoutMs), connect: ebayConnect(config), checkSettings: checkEbaySettings };
}

export { startEbayStandin } from "./ebay-standin.js";
