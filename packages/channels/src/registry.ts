// The one place that maps a destination's channel to its adapter, connect flow and settings
// check, so the gateway and the publish worker never import a channel folder directly.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelAdapter, ChannelName } from "./adapter.js";
import type { ChannelField } from "./channel-fields.js";
import type { ConnectFlow } from "./connect.js";
import { GiveUpChannelError } from "./errors.js";
import { ebayChannel } from "./ebay/index.js";
import { etsyChannel } from "./etsy/index.js";
import { shopifyChannel } from "./shopify/index.js";
import { createStandinAdapter } from "./standin-adapter.js";
import { woocommerceChannel } from "./woocommerce/index.js";

export interface ChannelOptions {
  /** Budget of one publish (all its requests), and of one token refresh. */
  timeoutMs: number;
}

/** What one channel brings: how to publish, how a merchant connects, which destination settings it needs. */
export interface ChannelDefinition {
  channel: ChannelName;
  /** How people name the channel ("Shopify", "eBay"). */
  displayName: string;
  adapter: ChannelAdapter;
  /** null for channels that are only added by an operator (the stand-in). */
  connect: ConnectFlow | null;
  /** Problems with a destination's settings, each naming the setting; empty when publishing can start. */
  checkSettings(settings: Record<string, unknown>): string[];
  /** What a merchant names before connecting (the connect request's query). */
  connectFields: ChannelField[];
  /** The destination settings publishing reads; the required ones are those checkSettings asks for. */
  settingsFields: ChannelField[];
}

export interface ChannelRegistry {
  definition(channel: ChannelName): ChannelDefinition;
  /** Every channel, in a stable order (the stand-in last). */
  definitions(): ChannelDefinition[];
  adapter(channel: ChannelName): ChannelAdapter;
}

export function createChannelRegistry(config: ChannelsConfig, options: ChannelOptions = { timeoutMs: 10_000 }): ChannelRegistry {
  const definitions = new Map<ChannelName, ChannelDefinition>([
    ["shopify", shopifyChannel(config, options)],
    ["ebay", ebayChannel(config, options)],
    ["etsy", etsyChannel(config, options)],
    ["woocommerce", woocommerceChannel(config, options)],
    ["standin", {
      channel: "standin", displayName: "Stand-in channel", adapter: createStandinAdapter(options), connect: null,
      checkSettings: () => [], connectFields: [], settingsFields: [],
    }],
  ]);
  const definition = (channel: ChannelName) => {
    const found = definitions.get(channel);
    // Give up rather than retry: no amount of retrying makes a missing adapter appear.
    if (!found) throw new GiveUpChannelError(`publishing to ${channel} is not supported`, { channel, kind: "validation" });
    return found;
  };
  return { definition, definitions: () => [...definitions.values()], adapter: (channel) => definition(channel).adapter };
}
