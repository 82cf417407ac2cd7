export { CHANNEL_NAMES, isChannelName } from "./adapter.js";
export type { ChannelAdapter, ChannelName, DestinationTarget, OAuthCredentials, PublishableProduct, PublishableVariant, PublishInput, PublishOutcome } from "./adapter.js";
export type { ChannelField } from "./channel-fields.js";
export { ConnectError, type ConnectedAccount, type ConnectFinishInput, type ConnectFlow, type ConnectRedirect, type ConnectStartInput } from "./connect.js";
export { channelCaller, jsonBody, okJson, throwIfFailed, type Answer, type ChannelCall, type ChannelRequest } from "./channel-http.js";
export { missingField, requiredBaseUrl, requiredString, toChannelAmount } from "./destination-fields.js";
export {
  ChannelError,
  ChannelWaitError,
  clampWait,
  DEFAULT_WAIT_MS,
  GiveUpChannelError,
  isChannelError,
  MAX_WAIT_MS,
  MIN_WAIT_MS,
  RetryableChannelError,
  type ChannelFailure,
  type ChannelOutcome,
  type GiveUpKind,
} from "./errors.js";
export { classifyChannelResponse, classifyNetworkError, parseRetryAfter, type HeaderSource } from "./classify.js";
export { createChannelRegistry, type ChannelDefinition, type ChannelOptions, type ChannelRegistry } from "./registry.js";
export { createStandinAdapter, standinListingBody, type StandinAdapterOptions } from "./standin/standin-adapter.js";
export { startStandinChannel, type StandinChannel, type StandinChannelOptions } from "./standin/standin-server.js";
export type { StandinCounts, StandinFault, StandinInspection, StandinListing, StandinListingInput, StandinPrice } from "./standin/standin-store.js";
export type { ChannelStandin, ListingSummary, StandinFault as ChannelStandinFault } from "./standin-kit/channel-standin.js";
export type { StandinOptions } from "./standin-kit/standin-options.js";
export { sharedContractsDir, CONTRACTS_ABSENT, type ContractViolation } from "./contract/contract-check.js";
export { shopifyAccountFromToken, startShopifyStandin, type ShopifyStandin } from "./shopify/index.js";
export { startEbayStandin } from "./ebay/index.js";
export { startEtsyStandin } from "./etsy/index.js";
export { startWoocommerceStandin, woocommerceAccountFromKeys, type WoocommerceStandin } from "./woocommerce/index.js";
