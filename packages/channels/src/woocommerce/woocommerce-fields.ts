import { field, type ChannelField } from "../channel-fields.js";

// The connect request's `storeUrl` (read by woocommerceConnect's start); WooCommerce needs no settings.
export const WOOCOMMERCE_CONNECT_FIELDS: ChannelField[] = [
  field("storeUrl", "Store address", "The public https address of your WordPress site running WooCommerce", { placeholder: "https://shop.example" }),
];
export const WOOCOMMERCE_SETTINGS_FIELDS: ChannelField[] = [];
