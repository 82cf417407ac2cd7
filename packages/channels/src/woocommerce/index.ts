// WooCommerce: REST wc/v3 with consumer keys, the store's key-provisioning connect flow.
import type { ChannelsConfig } from "@catalog/config";
import type { ChannelDefinition, ChannelOptions } from "../registry.js";
import { createWoocommerceAdapter } from "./woocommerce-adapter.js";
import { woocommerceConnect } from "./woocommerce-connect.js";
import { WOOCOMMERCE_CONNECT_FIELDS, WOOCOMMERCE_SETTINGS_FIELDS } from "./woocommerce-fields.js";

export function woocommerceChannel(config: ChannelsConfig, options: ChannelOptions): ChannelDefinition {
  return {
    channel: "woocommerce", displayName: "WooCommerce", adapter: createWoocommerceAdapter(options.timeoutMs, config.allowPrivateStoreUrls),
    connect: woocommerceConnect(config), checkSettings: () => [],
    connectFields: WOOCOMMERCE_CONNECT_FIELDS, settingsFields: WOOCOMMERCE_SETTINGS_FIELDS,
  };
}

export { woocommerceAccountFromKeys } from "./woocommerce-connect.js";
