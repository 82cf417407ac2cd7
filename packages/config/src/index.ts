// What every process's configuration shares. Each process's own is an entry of its own
// (`@catalog/config/gateway`, `/publish-worker`, `/import-worker`), so a process loads only its
// configuration: the gateway's and the publish worker's hold every channel's variables, and with
// them @catalog/channels, which the import worker never runs.
export { ConfigError, readEnv } from "./env.js";
export { CommonEnvSchema, WorkerHealthEnvSchema, redisKeyPrefix } from "./common.js";
export { REDACTED, logRedaction, redactUrl } from "./log-redaction.js";
export {
  RetentionEnvSchema,
  checkRetentionConfig,
  loadRetentionConfig,
  type RetentionConfig,
} from "./retention.js";
