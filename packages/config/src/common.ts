import { Type } from "typebox";
import { Int, Str } from "./env.js";

/** Variables every process reads: where PostgreSQL and Redis are, and how to log. */
export const CommonEnvSchema = Type.Object({
  DATABASE_URL: Str("postgresql://postgres@127.0.0.1:5432/catalog"),
  REDIS_URL: Str("redis://127.0.0.1:6379"),
  /** Prefix of every Redis key (queues, rate limits, caches), so that deployments and test runs can share one Redis. */
  REDIS_PREFIX: Str("catalog"),
  LOG_LEVEL: Type.Enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { default: "info" }),
});

/**
 * Where a worker serves /healthz, /readyz and /metrics. The port defaults to 0, a free one that
 * the process logs, so any number of workers can run on one host; set it where an orchestrator
 * probes a fixed port (one worker per container).
 */
export const WorkerHealthEnvSchema = Type.Object({
  HEALTH_HOST: Str("127.0.0.1"),
  HEALTH_PORT: Int(0, 0, 65535),
});
