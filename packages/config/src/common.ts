import { Type } from "typebox";
import { Bool, ConfigError, Int, Str } from "./env.js";

/** Variables every process reads: where PostgreSQL and Redis are, and how to log. */
export const CommonEnvSchema = Type.Object({
  DATABASE_URL: Str("postgresql://postgres@127.0.0.1:5432/catalog"),
  REDIS_URL: Str("redis://127.0.0.1:6379"),
  /**
   * Prefix of every Redis key (queues, rate limits, caches), so that deployments and test runs can
   * share one Redis. Keys are written under `{REDIS_PREFIX}:` (see redisKeyPrefix), so no braces.
   */
  REDIS_PREFIX: Type.String({ default: "catalog", minLength: 1, maxLength: 100 }),
  /** REDIS_URL is one node of a Redis Cluster: the others are found from it. */
  REDIS_CLUSTER: Bool(false),
  LOG_LEVEL: Type.Enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
    default: "info",
  }),
});

/**
 * Where a process serves /healthz, /readyz and /metrics (the gateway besides its public PORT).
 * The port defaults to 0, a free one that
 * the process logs, so any number of workers can run on one host; set it where an orchestrator
 * probes a fixed port (one worker per container).
 */
export const WorkerHealthEnvSchema = Type.Object({
  HEALTH_HOST: Str("127.0.0.1"),
  HEALTH_PORT: Int(0, 0, 65535),
});

/**
 * The prefix keys are written under: REDIS_PREFIX as a Redis Cluster hash tag. Only the part in
 * braces decides a key's slot, so every key of a deployment lives in one slot, as multi-key
 * commands and scripts (BullMQ's and ours) require on a cluster. The same names on one Redis.
 */
export const redisKeyPrefix = (prefix: string): string => `{${prefix}}`;

/**
 * A process's settings with REDIS_PREFIX replaced by the key prefix it implies, so no key is built
 * from the bare name.
 */
export function withRedisKeyPrefix<T extends { REDIS_PREFIX: string }>(
  raw: T,
): Omit<T, "REDIS_PREFIX"> & { redisKeyPrefix: string } {
  const { REDIS_PREFIX, ...rest } = raw;
  if (/[{}]/.test(REDIS_PREFIX)) {
    throw new ConfigError(
      `Invalid configuration: REDIS_PREFIX "${REDIS_PREFIX}" must not hold { or }: keys are written under {REDIS_PREFIX}:, and the braces make the Redis Cluster hash tag`,
    );
  }
  return { ...rest, redisKeyPrefix: redisKeyPrefix(REDIS_PREFIX) };
}
