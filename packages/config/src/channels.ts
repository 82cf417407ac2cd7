// The sales channels' variables: the shared ones and each listed channel's own, declared by the
// channel's definition in @catalog/channels. Every base URL is configuration, so tests and the
// demo point them at local stand-ins. An empty client id leaves that channel unconfigured:
// connecting to it answers 503 naming the variables to set.
import { CHANNEL_DEFINITIONS, channelsEnvSchema } from "@catalog/channels";

export const ChannelsEnvSchema = channelsEnvSchema(CHANNEL_DEFINITIONS);
export { channelsConfig, channelsEnvSchema, type ChannelsConfig } from "@catalog/channels";
