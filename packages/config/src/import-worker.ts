import { Type, type Static } from "typebox";
import { Bool, Int, Str, readEnv } from "./env.js";
import { CommonEnvSchema, WorkerHealthEnvSchema, withRedisKeyPrefix } from "./common.js";
import { RetentionEnvSchema, checkRetentionConfig } from "./retention.js";

export const ImportWorkerEnvSchema = Type.Object({
  ...CommonEnvSchema.properties,
  ...WorkerHealthEnvSchema.properties,
  ...RetentionEnvSchema.properties,
  /** Pages fetched and extracted at once by this process. */
  IMPORT_CONCURRENCY: Int(8, 1, 256),
  /** Chromium pages rendered at once by this process (each costs memory). */
  RENDER_CONCURRENCY: Int(2, 1, 16),
  /** Render pages whose static HTML shows no product. */
  BROWSER_FALLBACK: Bool(true),
  CHROMIUM_PATH: Str("/usr/bin/chromium"),
  /**
   * The renderer process's websocket (`renderer-main.js`, e.g. ws://127.0.0.1:3200/chromium):
   * set, pages are rendered there, away from this process's credentials; unset, Chromium is
   * launched here (development and tests).
   */
  RENDERER_URL: Type.String({ default: "" }),
  FETCH_TIMEOUT_MS: Int(15_000, 100),
  RENDER_TIMEOUT_MS: Int(20_000, 100),
  FETCH_MAX_BYTES: Int(5 * 1024 * 1024, 1024),
  /** Allow pages on private and loopback addresses (local development and tests only). */
  LOCAL_INGEST: Bool(false),
  /** Run the source watch: re-check watched products' pages on their schedules. */
  SOURCE_WATCH: Bool(true),
  /** Re-checks run at once by this process (each host still gets one at a time). */
  WATCH_CONCURRENCY: Int(4, 1, 64),
  /** Least time between two re-checks of one host's pages, across every import worker. */
  WATCH_HOST_GAP_MS: Int(5_000, 0),
  /**
   * Keys that open the webhook endpoints' signing secrets (the gateway's CREDENTIALS_KEYS); unset,
   * this process sends no webhooks.
   */
  CREDENTIALS_KEYS: Type.String({ default: "" }),
  /** Allow webhook endpoints on private and loopback addresses (local development and tests). */
  WEBHOOK_PRIVATE_URLS: Bool(false),
  /** How long one webhook request may take. */
  WEBHOOK_TIMEOUT_MS: Int(15_000, 100),
  /**
   * Waits before each retry of a webhook delivery, comma-separated milliseconds (Standard
   * Webhooks: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); the first attempt is immediate.
   */
  WEBHOOK_RETRY_DELAYS_MS: Type.String({
    default: "5000,300000,1800000,7200000,18000000,36000000,36000000",
    pattern: "^\\s*\\d+\\s*(,\\s*\\d+\\s*)*$",
  }),
  /** An endpoint whose deliveries have all failed for this long is disabled (default 5 days). */
  WEBHOOK_DISABLE_AFTER_MS: Int(5 * 24 * 3600_000, 1),
  /** How often pending deliveries that are due are looked for (those whose job Redis lost). */
  WEBHOOK_SWEEP_MS: Int(10_000, 10),
  /** Webhook requests sent at once by this process. */
  WEBHOOK_CONCURRENCY: Int(8, 1, 256),
});

export type ImportWorkerConfig = Omit<Static<typeof ImportWorkerEnvSchema>, "REDIS_PREFIX"> & {
  redisKeyPrefix: string;
};

export const loadImportWorkerConfig = (
  env: Record<string, string | undefined> = process.env,
): ImportWorkerConfig =>
  withRedisKeyPrefix(checkRetentionConfig(readEnv(ImportWorkerEnvSchema, env)));
