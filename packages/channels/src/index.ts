export { CHANNEL_NAMES, isChannelName } from "./adapter.js";
export type { ChannelAdapter, ChannelName, DestinationTarget, PublishableProduct, PublishableVariant, PublishInput, PublishOutcome } from "./adapter.js";
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
export { adapterFor } from "./registry.js";
export { createStandinAdapter, standinListingBody, toChannelAmount, type StandinAdapterOptions } from "./standin/standin-adapter.js";
export { startStandinChannel, type StandinChannel, type StandinChannelOptions } from "./standin/standin-server.js";
export type { StandinCounts, StandinFault, StandinInspection, StandinListing, StandinListingInput, StandinPrice } from "./standin/standin-store.js";
