// WooCommerce: REST wc/v3 with consumer keys, the store's key-provisioning connect flow, and its stand-in.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelDefinition, ChannelOptions } from "../registry.js";
import { createWoocommerceAdapter } from "./woocommerce-adapter.js";
import { woocommerceConnect } from "./woocommerce-connect.js";

export function woocommerceChannel(config: ChannelsConfig, options: ChannelOptions): ChannelDefinition {
  return { channel: "woocommerce", adapter: createWoocommerceAdapter(options.timeoutMs, config.allowPrivateStoreUrls), connect: woocommerceConnect(config), checkSettings: () => [] };
}

export { woocommerceAccountFromKeys } from "./woocommerce-connect.js";
export { startWoocommerceStandin, type WoocommerceStandin } from "./woocommerce-standin.js";
