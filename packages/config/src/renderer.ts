import { Type, type Static } from "typebox";
import { ConfigError, Int, Str, readEnv } from "./env.js";

/** The renderer process (Chromium alone, for the import worker): no database, no Redis. */
export const RendererEnvSchema = Type.Object({
  /** 127.0.0.1 beside the worker (a sidecar shares its loopback); 0.0.0.0 to serve other hosts. */
  RENDERER_HOST: Str("127.0.0.1"),
  RENDERER_PORT: Int(3200, 1, 65535),
  CHROMIUM_PATH: Str("/usr/bin/chromium"),
  LOG_LEVEL: Type.Enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
    default: "info",
  }),
});

export type RendererConfig = Static<typeof RendererEnvSchema>;

// What a page that breaks out of Chromium must not find in its process's environment.
const CREDENTIAL = /^(DATABASE_URL|REDIS_URL|CREDENTIALS_KEYS)$|SECRET|PASSWORD|TOKEN/;

export function loadRendererConfig(
  env: Record<string, string | undefined> = process.env,
): RendererConfig {
  const credentials = Object.keys(env).filter((name) => env[name] && CREDENTIAL.test(name));
  if (credentials.length > 0) {
    throw new ConfigError(
      `Invalid configuration: the renderer runs merchants' pages and must hold no credentials; remove ${credentials.sort().join(", ")} from its environment`,
    );
  }
  return readEnv(RendererEnvSchema, env);
}
