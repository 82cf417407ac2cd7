import { Type } from "typebox";
import { Str } from "./env.js";

/** Variables every process reads: where PostgreSQL and Redis are, and how to log. */
export const CommonEnvSchema = Type.Object({
  DATABASE_URL: Str("postgresql://postgres@127.0.0.1:5432/catalog"),
  REDIS_URL: Str("redis://127.0.0.1:6379"),
  /** Prefix of every Redis key (queues, rate limits, caches), so that deployments and test runs can share one Redis. */
  REDIS_PREFIX: Str("catalog"),
  LOG_LEVEL: Type.Enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { default: "info" }),
});
