import { Type, type Static } from "typebox";
import { Bool, Int, Str, readEnv } from "./env.js";
import { CommonEnvSchema, WorkerHealthEnvSchema, withRedisKeyPrefix } from "./common.js";

export const ImportWorkerEnvSchema = Type.Object({
  ...CommonEnvSchema.properties,
  ...WorkerHealthEnvSchema.properties,
  /** Pages fetched and extracted at once by this process. */
  IMPORT_CONCURRENCY: Int(8, 1, 256),
  /** Chromium pages rendered at once by this process (each costs memory). */
  RENDER_CONCURRENCY: Int(2, 1, 16),
  /** Render pages whose static HTML shows no product. */
  BROWSER_FALLBACK: Bool(true),
  CHROMIUM_PATH: Str("/usr/bin/chromium"),
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
});

export type ImportWorkerConfig = Omit<Static<typeof ImportWorkerEnvSchema>, "REDIS_PREFIX"> & {
  redisKeyPrefix: string;
};

export const loadImportWorkerConfig = (
  env: Record<string, string | undefined> = process.env,
): ImportWorkerConfig => withRedisKeyPrefix(readEnv(ImportWorkerEnvSchema, env));
