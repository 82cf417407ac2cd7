export { CHANNEL_NAMES, isChannelName, type ChannelName } from "./channel-names.js";
export { CHANNEL_DEFINITIONS } from "./channel-list.js";
export {
  defineChannel,
  type AnyChannelDefinition,
  type ChannelContext,
  type ChannelDefinition,
  type ChannelRateLimit,
  type OperatorAccount,
} from "./channel-definition.js";
export {
  channelsConfig,
  channelsEnvSchema,
  SharedChannelsEnvSchema,
  type ChannelsConfig,
  type ChannelsEnvProperties,
} from "./channels-config.js";
export type { ChannelNotifications, ChannelReport } from "./channel-notifications.js";
export { checkSettings } from "./settings-check.js";
export { toPublishable, type CatalogProduct } from "./publishable.js";
export { apiFieldName } from "./api-fields.js";
export {
  problemOf,
  productPreflight,
  throwFirst,
  type PreflightInput,
  type PreflightProblem,
} from "./preflight.js";
export type {
  ChannelAdapter,
  DestinationTarget,
  EndListingInput,
  OAuthCredentials,
  OfferUpdateInput,
  PublishableProduct,
  PublishableVariant,
  PublishInput,
  PublishOutcome,
  SettingOption,
  SettingsOptionsInput,
} from "./adapter.js";
export { fieldsOf, type ChannelField, type FieldChoices } from "./channel-fields.js";
export {
  ConnectError,
  type ConnectedAccount,
  type ConnectFinishInput,
  type ConnectFlow,
  type ConnectRedirect,
  type ConnectStartInput,
} from "./connect.js";
export {
  channelCaller,
  jsonBody,
  okJson,
  throwIfFailed,
  type Answer,
  type ChannelCall,
  type ChannelRequest,
} from "./channel-http.js";
export {
  missingField,
  requiredBaseUrl,
  requiredString,
  toChannelAmount,
} from "./destination-fields.js";
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
export {
  classifyChannelResponse,
  classifyNetworkError,
  parseRetryAfter,
  type HeaderSource,
} from "./classify.js";
export {
  createChannelRegistry,
  type Channel,
  type ChannelOptions,
  type ChannelRegistry,
} from "./registry.js";
export {
  createStandinAdapter,
  standinListingBody,
  type StandinAdapterOptions,
} from "./standin-adapter.js";
