// @catalog/channels/standins: local fake sales channels for tests, benchmarks and the demo (the
// generic stand-in channel and the Shopify, eBay, Etsy, WooCommerce and Amazon stand-ins, each in
// its channel's folder as <channel>-standin.ts), their shared kit and the contract checks they hold
// every request to. Nothing the gateway or the workers import reaches this folder or a
// *-standin.ts file (packages/channels/test/standins-apart.test.ts).
export {
  startStandinChannel,
  type StandinChannel,
  type StandinChannelOptions,
} from "./generic/standin-server.js";
export type {
  StandinCounts,
  StandinFault,
  StandinInspection,
  StandinListing,
  StandinListingInput,
  StandinPrice,
} from "./generic/standin-store.js";
export type {
  ChannelStandin,
  ListingSummary,
  StandinFault as ChannelStandinFault,
} from "./kit/channel-standin.js";
export type { StandinOptions } from "./kit/standin-options.js";
export { sharedContractsDir, type ContractViolation } from "./contract/contract-check.js";
export { CHANNEL_STANDINS } from "./channel-standins.js";
export type { ChannelStandinEntry, ChannelTestCase } from "./channel-standin-entry.js";
export { startShopifyStandin, type ShopifyStandin } from "../shopify/shopify-standin.js";
export { startEbayStandin } from "../ebay/ebay-standin.js";
export { startEtsyStandin } from "../etsy/etsy-standin.js";
export { startAmazonStandin, type AmazonStandin } from "../amazon/amazon-standin.js";
export {
  startWoocommerceStandin,
  type WoocommerceStandin,
} from "../woocommerce/woocommerce-standin.js";
