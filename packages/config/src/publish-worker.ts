import { Type, type Static, type TSchema } from "typebox";
import { ConfigError, Int, readEnv } from "./env.js";
import { CommonEnvSchema, WorkerHealthEnvSchema, withRedisKeyPrefix } from "./common.js";
import {
  CHANNEL_DEFINITIONS,
  channelsConfig,
  channelsEnvSchema,
  type AnyChannelDefinition,
  type ChannelsConfig,
} from "@catalog/channels";

const PublishWorkerOwnEnvSchema = Type.Object({
  ...CommonEnvSchema.properties,
  ...WorkerHealthEnvSchema.properties,
  /**
   * Keys that open destination credentials: `id:base64key[,id:base64key]`, the first one current.
   */
  CREDENTIALS_KEYS: Type.String({ minLength: 1 }),
  /**
   * Destinations this process serves at once; each lane holds one Redis connection while it serves.
   */
  PUBLISH_LANES: Int(16, 1, 256),
  /** Jobs of one destination running at once, across every worker process. */
  DESTINATION_CONCURRENCY: Int(1, 1, 64),
  /** Channel calls per second per destination, across every worker process (0: no limit). */
  DESTINATION_RATE_PER_SECOND: Int(0, 0, 100_000),
  /** Channel calls per publish before it is dead. */
  PUBLISH_ATTEMPTS: Int(5, 1, 100),
  /** First retry delay, doubled each attempt, with jitter. */
  PUBLISH_BACKOFF_MS: Int(2_000, 10),
  /** How long a lane serves one destination before it lets others have a turn. */
  SLICE_MS: Int(1_000, 10),
  /** Most jobs a lane takes from one destination per turn. */
  SLICE_JOBS: Int(50, 1),
  /** Longest wait for one channel call. */
  CHANNEL_TIMEOUT_MS: Int(15_000, 100),
  /**
   * Time to live of everything a worker holds in Redis (destination slots, job locks, the per
   * product lock). Renewed every LEASE_HEARTBEAT_MS while held, so it only bounds how long a
   * worker that died (SIGKILL, lost host) keeps its destinations and jobs from the others.
   */
  JOB_LOCK_MS: Int(5_000, 500),
  /** How often held leases and locks are renewed; at most half of JOB_LOCK_MS. */
  LEASE_HEARTBEAT_MS: Int(1_000, 100),
  BREAKER_ERROR_PERCENT: Int(50, 1, 100),
  /** Calls in the breaker's window before its error rate counts. */
  BREAKER_VOLUME: Int(5, 1),
  BREAKER_WINDOW_MS: Int(10_000, 100),
  /** How long an open breaker stays open before one probe call. */
  BREAKER_RESET_MS: Int(15_000, 100),
  /**
   * How often PostgreSQL's pending publishes are checked against Redis (re-enqueueing lost ones).
   */
  RECOVERY_INTERVAL_MS: Int(5_000, 100),
  /** A queued publish not seen in Redis for this long is enqueued again. */
  PENDING_LEASE_MS: Int(60_000, 500),
});

/** The publish worker's variables with those of the listed channels. */
export const publishWorkerEnvSchema = <const Defs extends readonly AnyChannelDefinition[]>(
  channels: Defs,
) =>
  Type.Object({
    ...PublishWorkerOwnEnvSchema.properties,
    ...channelsEnvSchema(channels).properties,
  });

export const PublishWorkerEnvSchema = publishWorkerEnvSchema(CHANNEL_DEFINITIONS);

export type PublishWorkerConfig = Omit<Static<typeof PublishWorkerEnvSchema>, "REDIS_PREFIX"> & {
  channels: ChannelsConfig;
  redisKeyPrefix: string;
};

export function loadPublishWorkerConfig(
  env: Record<string, string | undefined> = process.env,
  channels: readonly AnyChannelDefinition[] = CHANNEL_DEFINITIONS,
): PublishWorkerConfig {
  const schema: TSchema =
    channels === CHANNEL_DEFINITIONS ? PublishWorkerEnvSchema : publishWorkerEnvSchema(channels);
  const raw = readEnv(schema, env) as Static<typeof PublishWorkerEnvSchema>;
  // Two renewals must fit in one time to live, or a slow round trip loses a lease that is in use.
  if (raw.LEASE_HEARTBEAT_MS * 2 > raw.JOB_LOCK_MS) {
    throw new ConfigError(
      `Invalid configuration: LEASE_HEARTBEAT_MS (${raw.LEASE_HEARTBEAT_MS}) must be at most half of JOB_LOCK_MS (${raw.JOB_LOCK_MS})`,
    );
  }
  return { ...withRedisKeyPrefix(raw), channels: channelsConfig(raw, channels) };
}
