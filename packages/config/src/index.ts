export { ConfigError, readEnv } from "./env.js";
export { CommonEnvSchema, WorkerHealthEnvSchema, redisKeyPrefix } from "./common.js";
export { GatewayEnvSchema, gatewayEnvSchema, loadGatewayConfig, type GatewayConfig } from "./gateway.js";
export { ImportWorkerEnvSchema, loadImportWorkerConfig, type ImportWorkerConfig } from "./import-worker.js";
export { PublishWorkerEnvSchema, publishWorkerEnvSchema, loadPublishWorkerConfig, type PublishWorkerConfig } from "./publish-worker.js";
export { ChannelsEnvSchema, channelsConfig, type ChannelsConfig } from "./channels.js";
export { REDACTED, logRedaction, redactUrl } from "./log-redaction.js";
