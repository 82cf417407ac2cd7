import { Type, type Static } from "typebox";
import { Bool, ConfigError, Int, readEnv } from "./env.js";

/**
 * How long the record keeps what grows without bound (issue 32): sync logs, product history,
 * import rows and sessions. Read by the import worker (which runs the periodic pass) and by the
 * CLI's `retention` command. Days are counted from a row's creation (sync logs, history), its
 * import's end (import rows) or its expiry or revocation (sessions).
 */
export const RetentionEnvSchema = Type.Object({
  /** Run the periodic retention pass in this process (one replica at a time runs it). */
  RETENTION: Bool(true),
  /** How often the pass runs. */
  RETENTION_INTERVAL_MS: Int(3_600_000, 60_000),
  /** Succeeded sync logs are removed this many days after they were created. */
  SYNC_LOG_SUCCESS_RETENTION_DAYS: Int(30, 1, 36_500),
  /** Failed sync logs are kept longer: they are what someone investigates. */
  SYNC_LOG_FAILURE_RETENTION_DAYS: Int(90, 1, 36_500),
  /**
   * When set, product history entries older than this many days are removed; unset (the default),
   * history is kept as long as the product (and a deleted product's, which stays readable).
   */
  PRODUCT_HISTORY_RETENTION_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 36_500 })),
  /**
   * The rows (previewed items, diffs) of a stored or failed import are removed this many days after
   * it ended; the import, its counts and result stay until it expires.
   */
  IMPORT_ROWS_RETENTION_DAYS: Int(3, 0, 36_500),
  /** Expired or revoked sessions are removed this many days after they ended. */
  SESSION_RETENTION_DAYS: Int(1, 0, 36_500),
  /** Rows removed per statement (each its own short transaction). */
  RETENTION_BATCH_SIZE: Int(5_000, 100, 100_000),
  /** Pause between two batches, so readers and writers get the disk and the locks back. */
  RETENTION_BATCH_PAUSE_MS: Int(50, 0, 60_000),
});

export type RetentionConfig = Static<typeof RetentionEnvSchema>;

/** Checks what the schema cannot: failures are kept at least as long as successes. */
export function checkRetentionConfig<T extends RetentionConfig>(config: T): T {
  if (config.SYNC_LOG_FAILURE_RETENTION_DAYS < config.SYNC_LOG_SUCCESS_RETENTION_DAYS)
    throw new ConfigError(
      `Invalid configuration: SYNC_LOG_FAILURE_RETENTION_DAYS (${config.SYNC_LOG_FAILURE_RETENTION_DAYS}) must be at least SYNC_LOG_SUCCESS_RETENTION_DAYS (${config.SYNC_LOG_SUCCESS_RETENTION_DAYS}): failed sync logs are kept at least as long as successful ones`,
    );
  return config;
}

export const loadRetentionConfig = (
  env: Record<string, string | undefined> = process.env,
): RetentionConfig => checkRetentionConfig(readEnv(RetentionEnvSchema, env));
