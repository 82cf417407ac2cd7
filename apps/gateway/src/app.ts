import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import Fastify, { type FastifyInstance } from "fastify";
import cookie from "@fastify/cookie";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { RedisClient } from "@catalog/queue";
import type { GatewayConfig } from "@catalog/config/gateway";
import { openChangeFeed, parseKeyring, type Db } from "@catalog/db";
import { createChannelRegistry, type AnyChannelDefinition } from "@catalog/channels";
import { Semaphore } from "@catalog/fetch/semaphore";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { clientErrorHandler } from "./client-errors.js";
import { MAX_PATH_SEGMENT, frameworkErrors } from "./framework-errors.js";
import { gatewayLoggerOptions, type GatewayLogging } from "./logger-options.js";
import { requestLogger } from "./request-logger.js";
import { RedisTurn } from "./redis-turn.js";
import { SESSION_COOKIE, authPlugin } from "./plugins/auth.js";
import { bearerOf, tokenLookup } from "./plugins/bearer-tokens.js";
import { browserClientsPlugin } from "./plugins/browser-clients.js";
import { dashboardPlugin } from "./plugins/dashboard.js";
import { errorsPlugin } from "./plugins/errors.js";
import { healthRoutes } from "./plugins/health.js";
import { metricsPlugin } from "./plugins/metrics.js";
import { openapiPlugin } from "./plugins/openapi.js";
import { queuesPlugin } from "./plugins/queues.js";
import { rateLimitPlugin } from "./plugins/rate-limit.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { readCachesPlugin, type ChangeFeedOpener } from "./plugins/read-caches.js";
import { validatorCompiler } from "./plugins/validation.js";
import { authRoutes } from "./routes/auth/index.js";
import { deviceCookieSecrets } from "./routes/auth/device-cookies.js";
import { passwordResetRoutes } from "./routes/auth/password-reset.js";
import { createMailer } from "./mail/mailer.js";
import { channelRoutes } from "./routes/channels/index.js";
import { extensionRoutes } from "./routes/extension/index.js";
import { extensionKeyRoutes } from "./routes/extension-keys/index.js";
import { apiTokenRoutes } from "./routes/api-tokens/index.js";
import { legalRoutes } from "./routes/legal/index.js";
import { importRoutes } from "./routes/one-shot-import/index.js";
import { ImportTasks, closeParseThreads } from "./importing/index.js";
import { importsRoutes } from "./routes/imports/index.js";
import { importMappingRoutes } from "./routes/import-mappings/index.js";
import { destinationRoutes } from "./routes/destinations/index.js";
import { integrationRoutes } from "./routes/integrations/index.js";
import { notificationRoutes } from "./routes/integrations/notifications.js";
import { productRoutes } from "./routes/products/index.js";
import { sourceWatchRoutes } from "./routes/source-watch/index.js";
import { publishRoutes } from "./routes/publish/index.js";
import { unpublishRoutes } from "./routes/unpublish/index.js";
import { publishRunRoutes } from "./routes/publish-runs/index.js";
import { runEventsPlugin } from "./routes/publish-runs/run-events.js";
import { syncLogRoutes } from "./routes/sync-logs/index.js";
import { systemRoutes } from "./routes/system/index.js";
import { webhookRoutes } from "./routes/webhooks/index.js";

export interface AppDeps {
  config: GatewayConfig;
  db: Db;
  /** Fails fast when Redis is down (`enableOfflineQueue: false`), so requests are not held. */
  redis: RedisClient;
  /**
   * false: no log; else where and how much (default: stdout at LOG_LEVEL), always with secrets
   * redacted.
   */
  logger?: false | GatewayLogging;
  /**
   * Opens the database's change feed; by default a `LISTEN` connection to `config.DATABASE_URL`.
   */
  changeFeed?: ChangeFeedOpener;
  /**
   * The channels (default: CHANNEL_DEFINITIONS); `config` must have been read with the same list.
   */
  channels?: readonly AnyChannelDefinition[];
  /**
   * Resolves host names for the URL checks of imports and edits (default: the system's; tests
   * answer from a table).
   */
  resolveHost?: UrlPolicy["resolve"];
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the gateway; only server.ts listens. Closing the app does not close `db` or `redis`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, redis } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : gatewayLoggerOptions(config.LOG_LEVEL, deps.logger),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    clientErrorHandler,
    frameworkErrors,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    // A client's x-request-id is kept when it is a plain token, so it can follow a call across
    // services.
    requestIdHeader: false,
    childLoggerFactory: requestLogger,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Mutating requests carry JSON (multipart only where a route registers it): other types are 415.
  app.removeContentTypeParser(["text/plain"]);
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  // Once closing, every answer ends its connection. Fastify says so only to requests that arrive
  // after close() began; one already running would leave its kept-alive socket open, and close()
  // would wait for the client to drop it (up to the 72 s keep-alive timeout).
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });

  await app.register(errorsPlugin, { bodyLimit: config.BODY_LIMIT });
  await app.register(securityHeadersPlugin);
  const keyring = config.CREDENTIALS_KEYS ? parseKeyring(config.CREDENTIALS_KEYS) : null;
  if (!keyring)
    app.log.warn(
      "CREDENTIALS_KEYS is not set: device cookies are signed with a secret of this process, valid until it restarts and on no other instance",
    );
  // Signs the device cookies (routes/auth/device-cookies.ts); the session cookie is a random token,
  // not signed.
  await app.register(cookie, { secret: deviceCookieSecrets(keyring) });
  const tokens = tokenLookup(db);
  const turn = new RedisTurn(redis);
  // A signed-in request's session check reads its versions in the rate limiter's round trip to
  // Redis (redis-turn.ts): asked for here, before the limiter's count is sent.
  app.addHook("onRequest", (request, _reply, done) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token && bearerOf(request) === null) app.caches.prefetchSession(request, token);
    done();
  });
  await app.register(rateLimitPlugin, {
    // No bearer token, no lookup: most requests (cookies, anonymous) settle this synchronously.
    budgetOf: (request) =>
      bearerOf(request) === null
        ? null
        : tokens(request).then((principal) => (principal ? `token:${principal.token.id}` : null)),
    turn,
    prefix: config.redisKeyPrefix,
    max: config.RATE_LIMIT_MAX,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  });
  await app.register(browserClientsPlugin, { allowedOrigins: config.CORS_ORIGINS });
  await app.register(readCachesPlugin, {
    openFeed: deps.changeFeed ?? ((handlers) => openChangeFeed(config.DATABASE_URL, handlers)),
    redis,
    turn,
    prefix: config.redisKeyPrefix,
  });
  await app.register(authPlugin, { db, tokens });
  await app.register(openapiPlugin);
  await app.register(queuesPlugin, { redis, endpoint: config, prefix: config.redisKeyPrefix });
  await app.register(healthRoutes, { db, redis });
  await app.register(metricsPlugin);
  await app.register(dashboardPlugin, { dir: config.DASHBOARD_DIR });
  await app.register(runEventsPlugin, { db, redis, redisPrefix: config.redisKeyPrefix });

  const channels = createChannelRegistry(config.channels, undefined, deps.channels);
  // One set of document-import slots for /api and /api/v1 alike.
  const documentSlots = new Semaphore(config.DOCUMENT_IMPORT_CONCURRENCY);
  // Background imports (/api/imports) hold their slot for minutes: slots of their own, so the
  // synchronous routes never wait behind them.
  const importTasks = new ImportTasks(db, config.DOCUMENT_IMPORT_CONCURRENCY, app.log);
  // Page URLs to import and image URLs to store: public addresses only, unless local ingest.
  const urlPolicy: UrlPolicy = { allowPrivate: config.LOCAL_INGEST, resolve: deps.resolveHost };
  // Password reset links by email (SMTP_URL), or a log line saying mail is off.
  const mailer = createMailer(config, app.log);
  app.addHook("onClose", () => mailer.close());
  // Idle document parser threads kept for the next import (they do not hold the process open).
  app.addHook("onClose", closeParseThreads);
  const api = async (scope: FastifyInstance) => {
    await scope.register(authRoutes, {
      db,
      sessionTtlSeconds: config.SESSION_TTL_SECONDS,
      cookieSecure: config.COOKIE_SECURE,
      redis,
      redisPrefix: config.redisKeyPrefix,
      loginBudgets: {
        perAccount: {
          max: config.LOGIN_RATE_LIMIT_MAX,
          windowSeconds: config.LOGIN_RATE_LIMIT_WINDOW_SECONDS,
        },
        perAddress: {
          max: config.LOGIN_ADDRESS_RATE_LIMIT_MAX,
          windowSeconds: config.LOGIN_ADDRESS_RATE_LIMIT_WINDOW_SECONDS,
        },
        perDevice: {
          max: config.LOGIN_DEVICE_RATE_LIMIT_MAX,
          windowSeconds: config.LOGIN_DEVICE_RATE_LIMIT_WINDOW_SECONDS,
        },
      },
    });
    await scope.register(passwordResetRoutes, {
      db,
      mailer,
      publicUrl: config.PUBLIC_URL,
      ttlSeconds: config.PASSWORD_RESET_TTL_SECONDS,
      redis,
      redisPrefix: config.redisKeyPrefix,
      budgets: {
        perEmail: {
          max: config.PASSWORD_RESET_RATE_LIMIT_MAX,
          windowSeconds: config.PASSWORD_RESET_RATE_LIMIT_WINDOW_SECONDS,
        },
        perAddress: {
          max: config.PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX,
          windowSeconds: config.PASSWORD_RESET_ADDRESS_RATE_LIMIT_WINDOW_SECONDS,
        },
      },
    });
    await scope.register(productRoutes, { db, policy: urlPolicy });
    await scope.register(sourceWatchRoutes, { db });
    await scope.register(publishRoutes, {
      db,
      redis,
      redisPrefix: config.redisKeyPrefix,
      deadlineMs: config.PUBLISH_DEADLINE_MS,
      channels,
      keyring,
    });
    await scope.register(unpublishRoutes, {
      db,
      redis,
      redisPrefix: config.redisKeyPrefix,
      deadlineMs: config.PUBLISH_DEADLINE_MS,
    });
    await scope.register(publishRunRoutes, { db, redis, redisPrefix: config.redisKeyPrefix });
    await scope.register(legalRoutes, { db });
    await scope.register(importRoutes, {
      db,
      policy: urlPolicy,
      deadlineMs: config.IMPORT_DEADLINE_MS,
      document: {
        maxBytes: config.DOCUMENT_MAX_BYTES,
        parseHeapMb: config.DOCUMENT_PARSE_HEAP_MB,
        spoolDir: config.DOCUMENT_SPOOL_DIR || tmpdir(),
        slots: documentSlots,
      },
    });
    const imports = {
      db,
      tasks: importTasks,
      policy: urlPolicy,
      deadlineMs: config.IMPORT_DEADLINE_MS,
      document: {
        maxBytes: config.DOCUMENT_MAX_BYTES,
        parseHeapMb: config.DOCUMENT_PARSE_HEAP_MB,
        spoolDir: config.DOCUMENT_SPOOL_DIR || tmpdir(),
        slots: documentSlots,
      },
    };
    await scope.register(importsRoutes, { ...imports, auth: "session" });
    // The same imports for the browser extension, by key (a category page's chosen products).
    await scope.register(importsRoutes, { ...imports, auth: "apiKey" });
    await scope.register(importMappingRoutes, { db });
    await scope.register(extensionRoutes, { db, policy: urlPolicy });
    await scope.register(extensionKeyRoutes, { db });
    await scope.register(apiTokenRoutes, { db });
    await scope.register(syncLogRoutes, { db });
    await scope.register(destinationRoutes, {
      db,
      redis,
      redisPrefix: config.redisKeyPrefix,
      channels,
      keyring,
    });
    await scope.register(channelRoutes, { channels, canSealCredentials: keyring !== null });
    await scope.register(integrationRoutes, {
      db,
      redis,
      redisPrefix: config.redisKeyPrefix,
      channels,
      keyring,
      publicUrl: config.channels.publicUrl,
    });
    await scope.register(notificationRoutes, { db, channels });
    await scope.register(webhookRoutes, {
      db,
      keyring,
      policy: { allowPrivate: config.WEBHOOK_PRIVATE_URLS, resolve: deps.resolveHost },
    });
    await scope.register(systemRoutes, {
      db,
      redis,
      redisPrefix: config.redisKeyPrefix,
      labMode: config.LAB_MODE,
    });
  };
  // Every route is served identically under /api and /api/v1.
  await app.register(api, { prefix: "/api" });
  await app.register(api, { prefix: "/api/v1" });

  return app;
}
