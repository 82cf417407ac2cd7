import fp from "fastify-plugin";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RedisClient } from "@catalog/queue";
import type { CappedCount, ChangeFeedHandlers, SessionPrincipal } from "@catalog/db";
import { CacheVersions, type Versions } from "../cache-versions.js";
import type { RedisTurn } from "../redis-turn.js";
import { ReadCache } from "../read-cache.js";

export interface ReadCaches {
  /** Session principals by cookie token; group "sessions". */
  sessions: ReadCache<SessionPrincipal | null>;
  /** Catalog list pages, serialized JSON as UTF-8 bytes (sent as they are); grouped by org id. */
  catalog: ReadCache<Buffer>;
  /**
   * How many products a list filter matches (its `total`, a lower bound for a search past its
   * count limit), by filter; grouped by org id.
   */
  counts: ReadCache<CappedCount>;
  /**
   * Asks for the versions a session check of `token` will need, before anything is sent to Redis
   * for this request, so they come in the rate limiter's round trip (`RedisTurn`).
   */
  prefetchSession(request: FastifyRequest, token: string): void;
  /**
   * The principal of a session token, `load`ed unless this instance holds it and nothing changed
   * since.
   */
  session(
    request: FastifyRequest,
    token: string,
    load: () => Promise<SessionPrincipal | null>,
  ): Promise<SessionPrincipal | null>;
  /**
   * A serialized catalog page of the org, `load`ed unless this instance holds it and nothing
   * changed since; `until` (asked after a load) may end a loaded page's life sooner (ms epoch).
   */
  catalogPage(
    request: FastifyRequest,
    orgId: string,
    key: string,
    load: () => Promise<Buffer>,
    until?: () => number,
  ): Promise<Buffer>;
  /**
   * The number of the org's products a list filter matches, `load`ed unless this instance holds
   * it and nothing changed since: kept like a page, so as exact as one, and shared by every page
   * of the same filter (counting a million products is the cost of a deep page, not its rows).
   */
  catalogCount(
    request: FastifyRequest,
    orgId: string,
    key: string,
    load: () => Promise<CappedCount>,
  ): Promise<CappedCount>;
  /** Call once a write to the org's catalog has committed, before answering it. */
  catalogChanged(orgId: string): Promise<void>;
  /** Call once a sign-out has committed, before answering it. */
  sessionEnded(): Promise<void>;
}

/**
 * Opens the database's change feed with the caches' handlers (a seam: tests hold notifications
 * back).
 */
export type ChangeFeedOpener = (handlers: ChangeFeedHandlers) => { close(): Promise<void> };

export interface ReadCachesOptions {
  openFeed: ChangeFeedOpener;
  redis: RedisClient;
  /** The round trip to Redis of each event-loop turn, shared with the rate limiter. */
  turn: RedisTurn;
  prefix: string;
}

declare module "fastify" {
  interface FastifyInstance {
    caches: ReadCaches;
  }
  interface FastifyRequest {
    /** The org's catalog version, read in the session check's round trip to Redis. */
    catalogVersion: { orgId: string; version: string | null } | null;
    /** The versions asked for by `prefetchSession`, for its token and the org it peeked. */
    sessionVersions: { token: string; orgId: string | undefined; read: Promise<Versions> } | null;
  }
}

/**
 * The hot reads (who is this session, a page of the catalog) are served from memory. A write
 * through any gateway instance changes a version in Redis before it is answered (`CacheVersions`),
 * and a cached read is served only after one round trip to Redis finds the version it was
 * loaded under: a user sees their own writes at once, on any instance. Changes made elsewhere
 * (workers, the CLI, SQL by hand) arrive through the database's change notifications, which
 * drop what they touched. Until the feed is connected, whenever it is lost, and whenever Redis
 * cannot be read, every read goes to PostgreSQL.
 */
export const readCachesPlugin = fp(
  async (app: FastifyInstance, options: ReadCachesOptions) => {
    const versions = new CacheVersions(options.redis, options.turn, options.prefix);
    const sessions = new ReadCache<SessionPrincipal | null>({
      maxEntries: 20_000,
      maxAgeMs: 60_000,
    });
    // Pages are up to ~200 KB each: bound the memory, not only the count.
    const catalog = new ReadCache<Buffer>({
      maxEntries: 5_000,
      maxAgeMs: 60_000,
      maxSize: 64 * 1024 * 1024,
      sizeOf: (body) => body.byteLength,
    });
    const counts = new ReadCache<CappedCount>({ maxEntries: 20_000, maxAgeMs: 60_000 });

    // A failed record leaves the other instances to the change feed (milliseconds, usually):
    // the write itself has committed, so its answer must not turn into an error.
    const recorded = (what: string, write: Promise<void>) =>
      write.catch((err: unknown) =>
        app.log.warn(
          { err },
          `could not record ${what} in Redis: other gateway instances rely on the change feed for it`,
        ),
      );

    // The org's catalog version this request read with its session, else read now.
    const catalogVersion = async (request: FastifyRequest, orgId: string) =>
      request.catalogVersion?.orgId === orgId
        ? request.catalogVersion.version
        : await versions.catalog(orgId);

    const caches: ReadCaches = {
      sessions,
      catalog,
      counts,
      prefetchSession(request, token) {
        if (!sessions.enabled) return;
        const orgId = sessions.peek("sessions", token)?.org.id;
        request.sessionVersions = { token, orgId, read: versions.read(orgId) };
      },
      async session(request, token, load) {
        if (!sessions.enabled) return load();
        // The org of a session this instance holds is known: its catalog version comes in the same
        // round trip.
        const early = request.sessionVersions?.token === token ? request.sessionVersions : null;
        const orgId = early ? early.orgId : sessions.peek("sessions", token)?.org.id;
        const read = await (early?.read ?? versions.read(orgId));
        if (orgId !== undefined) request.catalogVersion = { orgId, version: read.catalog ?? null };
        return sessions.getOrLoad(
          "sessions",
          token,
          read.sessions,
          load,
          (p) => p?.expiresAt.getTime() ?? 0,
        );
      },
      async catalogPage(request, orgId, key, load, until) {
        if (!catalog.enabled) return load();
        return catalog.getOrLoad(orgId, key, await catalogVersion(request, orgId), load, until);
      },
      async catalogCount(request, orgId, key, load) {
        if (!counts.enabled) return load();
        return counts.getOrLoad(orgId, key, await catalogVersion(request, orgId), load);
      },
      async catalogChanged(orgId) {
        catalog.invalidate(orgId);
        counts.invalidate(orgId);
        await recorded("a catalog change", versions.catalogChanged(orgId));
      },
      async sessionEnded() {
        sessions.invalidate("sessions");
        await recorded("a sign-out", versions.sessionsChanged());
      },
    };

    const feed = options.openFeed({
      onChange: (change) =>
        change.kind === "sessions"
          ? sessions.clear()
          : [catalog, counts].forEach((c) => c.invalidate(change.orgId)),
      onConnected: () => [sessions, catalog, counts].forEach((c) => (c.enabled = true)),
      onDisconnected: (error) => {
        [sessions, catalog, counts].forEach((c) => (c.enabled = false));
        app.log.warn(
          { err: error },
          "database change feed lost: read caches off until it reconnects",
        );
      },
    });
    app.decorate("caches", caches);
    app.decorateRequest("catalogVersion", null);
    app.decorateRequest("sessionVersions", null);
    app.addHook("onClose", () => feed.close());
  },
  { name: "read-caches" },
);
