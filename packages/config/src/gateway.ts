import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Type, type Static, type TSchema } from "typebox";
import { Bool, Int, Str, readEnv } from "./env.js";
import { CommonEnvSchema, WorkerHealthEnvSchema, withRedisKeyPrefix } from "./common.js";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.js";
import {
  CHANNEL_DEFINITIONS,
  channelsConfig,
  channelsEnvSchema,
  type AnyChannelDefinition,
  type ChannelsConfig,
} from "@catalog/channels";

const GatewayOwnEnvSchema = Type.Object({
  ...CommonEnvSchema.properties,
  /** Where /metrics is served (with /healthz and /readyz), apart from the public PORT. */
  ...WorkerHealthEnvSchema.properties,
  /**
   * Keys that seal the tokens of connected channels (`id:base64key[,...]`, the first one current);
   * without them connecting a channel answers 503.
   */
  CREDENTIALS_KEYS: Type.String({ default: "" }),
  HOST: Str("127.0.0.1"),
  PORT: Int(3000, 0, 65535),
  /** Largest accepted JSON body, in bytes. */
  BODY_LIMIT: Int(1_048_576, 1024),
  /** Session lifetime, in seconds. */
  SESSION_TTL_SECONDS: Int(7 * 24 * 3600, 60),
  /**
   * The Secure flag of the session and device cookies; unset, it follows PUBLIC_URL (https: Secure,
   * http: not).
   */
  COOKIE_SECURE: Type.Optional(Type.Boolean()),
  /**
   * Comma-separated dashboard origins allowed to call with credentials (CORS), besides the
   * service's own.
   */
  CORS_ORIGINS: Type.String({ default: "" }),
  RATE_LIMIT_MAX: Int(600, 1),
  RATE_LIMIT_WINDOW_SECONDS: Int(60, 1),
  /**
   * Failed logins allowed per client address and account in a window (successful ones are not
   * counted).
   */
  LOGIN_RATE_LIMIT_MAX: Int(10, 1),
  LOGIN_RATE_LIMIT_WINDOW_SECONDS: Int(60, 1),
  /**
   * Failed logins allowed per client address across all accounts in a window (password spraying).
   */
  LOGIN_ADDRESS_RATE_LIMIT_MAX: Int(50, 1),
  LOGIN_ADDRESS_RATE_LIMIT_WINDOW_SECONDS: Int(900, 1),
  /**
   * Failed logins allowed per device cookie (a browser that signed in to that account before),
   * which the two budgets above do not limit.
   */
  LOGIN_DEVICE_RATE_LIMIT_MAX: Int(10, 1),
  LOGIN_DEVICE_RATE_LIMIT_WINDOW_SECONDS: Int(900, 1),
  /**
   * Where password reset emails are sent through: `smtp://user:pass@host:port` (STARTTLS when the
   * server offers it) or `smtps://...` (TLS from the start). Unset, no mail is sent: a reset request
   * still answers the same, and the gateway logs that mail is off.
   */
  SMTP_URL: Type.String({ default: "", pattern: "^$|^smtps?://[^/?#]+/?$" }),
  /** The sender of those emails, an address or `Name <address>`. */
  MAIL_FROM: Str("Catalog <no-reply@localhost>"),
  /** How long a password reset link works, in seconds. */
  PASSWORD_RESET_TTL_SECONDS: Int(1800, 60, 24 * 3600),
  /** Password reset requests allowed per email address in a window (each one sends a mail). */
  PASSWORD_RESET_RATE_LIMIT_MAX: Int(3, 1),
  PASSWORD_RESET_RATE_LIMIT_WINDOW_SECONDS: Int(900, 1),
  /** Password reset requests allowed per client address, across email addresses, in a window. */
  PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX: Int(20, 1),
  PASSWORD_RESET_ADDRESS_RATE_LIMIT_WINDOW_SECONDS: Int(900, 1),
  /** Lab mode allows destructive admin actions such as flush_redis. */
  LAB_MODE: Bool(false),
  /** Allow imports from private and loopback addresses (local development and tests only). */
  LOCAL_INGEST: Bool(false),
  /** Allow webhook endpoints on private and loopback addresses (local development and tests). */
  WEBHOOK_PRIVATE_URLS: Bool(false),
  /**
   * How long a URL import waits for the import workers, overall, before answering with what it has.
   */
  IMPORT_DEADLINE_MS: Int(45_000, 100),
  /**
   * How long a publish with an Idempotency-Key holds the key while it runs; a gateway that dies
   * mid-request frees it after this.
   */
  PUBLISH_DEADLINE_MS: Int(30_000, 1_000),
  /** Largest accepted import document, in bytes. */
  DOCUMENT_MAX_BYTES: Int(50 * 1024 * 1024, 1024),
  /**
   * Heap of the worker thread that reads one import document, in MB: past it that import is refused
   * (413), the gateway carries on.
   */
  DOCUMENT_PARSE_HEAP_MB: Int(256, 16),
  /**
   * While a document is read (imported or previewed) or an import stored, how far V8 lets the
   * gateway's heap grow past what its last full collection kept, in percent, before the next one; 0
   * leaves V8's own choice (up to four times). A document import makes garbage fast: at 50 a
   * 100,000-row import peaked at 400-490 MB of RSS instead of 550-730 MB (two machines). It holds
   * only while documents are read or imports stored, because it costs cached reads 12-39% more CPU
   * (more full collections; bench/README.md).
   */
  HEAP_GROWING_PERCENT: Int(50, 0, 300),
  /**
   * Documents parsed and imported at once by one gateway (each with its own parser thread); more
   * wait their turn.
   */
  DOCUMENT_IMPORT_CONCURRENCY: Int(2, 1),
  /**
   * Where uploaded documents are spooled while they are imported (default: the system's temporary
   * directory).
   */
  DOCUMENT_SPOOL_DIR: Type.String({ default: "" }),
  /**
   * The dashboard's build the gateway serves at / (default: apps/dashboard/dist in this
   * repository).
   */
  DASHBOARD_DIR: Type.String({ default: "" }),
  /**
   * The proxies whose X-Forwarded-* headers are believed: false, or their addresses and CIDR ranges
   * (see trust-proxy.ts and deploy/README.md).
   */
  TRUST_PROXY: Str("false"),
});

/** The gateway's variables with those of the listed channels (a test lists one more). */
export const gatewayEnvSchema = <const Defs extends readonly AnyChannelDefinition[]>(
  channels: Defs,
) => Type.Object({ ...GatewayOwnEnvSchema.properties, ...channelsEnvSchema(channels).properties });

export const GatewayEnvSchema = gatewayEnvSchema(CHANNEL_DEFINITIONS);

export type GatewayConfig = Omit<
  Static<typeof GatewayEnvSchema>,
  "CORS_ORIGINS" | "REDIS_PREFIX" | "COOKIE_SECURE" | "TRUST_PROXY"
> & {
  CORS_ORIGINS: string[];
  COOKIE_SECURE: boolean;
  TRUST_PROXY: TrustProxy;
  channels: ChannelsConfig;
  redisKeyPrefix: string;
};

/** apps/dashboard/dist, found from this file, so it does not depend on the working directory. */
const defaultDashboardDir = fileURLToPath(new URL("../../../apps/dashboard/dist", import.meta.url));

export function loadGatewayConfig(
  env: Record<string, string | undefined> = process.env,
  channels: readonly AnyChannelDefinition[] = CHANNEL_DEFINITIONS,
): GatewayConfig {
  const schema: TSchema =
    channels === CHANNEL_DEFINITIONS ? GatewayEnvSchema : gatewayEnvSchema(channels);
  const raw = readEnv(schema, env) as Static<typeof GatewayEnvSchema>;
  return {
    ...withRedisKeyPrefix(raw),
    COOKIE_SECURE: raw.COOKIE_SECURE ?? /^https:/i.test(raw.PUBLIC_URL),
    TRUST_PROXY: parseTrustProxy(raw.TRUST_PROXY),
    DASHBOARD_DIR: raw.DASHBOARD_DIR ? resolve(raw.DASHBOARD_DIR) : defaultDashboardDir,
    CORS_ORIGINS: raw.CORS_ORIGINS.split(",")
      .map((o) => o.trim())
      .filter((o) => o.length > 0),
    channels: channelsConfig(raw, channels),
  };
}
