// The one place that maps a destination's channel to its adapter, connect flow and settings
// check, so the gateway and the publish worker never import a channel folder directly.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelAdapter, ChannelName } from "./adapter.js";
import type { ConnectFlow } from "./connect.js";
import { GiveUpChannelError } from "./errors.js";
import { ebayChannel } from "./ebay/index.js";
import { etsyChannel } from "./etsy/index.js";
import { shopifyChannel } from "./shopify/index.js";
import { createStandinAdapter } from "./standin/standin-adapter.js";
import { woocommerceChannel } from "./woocommerce/index.js";

export interface ChannelOptions {
  /** Budget of one publish (all its requests), and of one token refresh. */
  timeoutMs: number;
}

/** What one channel brings: how to publish, how a merchant connects, which destination settings it needs. */
export interface ChannelDefinition {
  channel: ChannelName;
  adapter: ChannelAdapter;
  /** null for channels that are only added by an operator (the stand-in). */
  connect: ConnectFlow | null;
  /** Problems with a destination's settings, each naming the setting; empty when publishing can start. */
  checkSettings(settings: Record<string, unknown>): string[];
}

export interface ChannelRegistry {
  definition(channel: ChannelName): ChannelDefinition;
  adapter(channel: ChannelName): ChannelAdapter;
}

export function createChannelRegistry(config: ChannelsConfig, options: ChannelOptions = { timeoutMs: 10_000 }): ChannelRegistry {
  const definitions = new Map<ChannelName, ChannelDefinition>([
    ["shopify", shopifyChannel(config, options)],
    ["ebay", ebayChannel(config, options)],
    ["etsy", etsyChannel(config, options)],
    ["woocommerce", woocommerceChannel(config, options)],
    ["standin", { channel: "standin", adapter: createStandinAdapter(options), connect: null, checkSettings: () => [] }],
  ]);
  const definition = (channel: ChannelName) => {
    const found = definitions.get(channel);
    // Give up rather than retry: no amount of retrying makes a missing adapter appear.
    if (!found) throw new GiveUpChannelError(`publishing to ${channel} is not supported`, { channel, kind: "validation" });
    return found;
  };
  return { definition, adapter: (channel) => definition(channel).adapter };
}
