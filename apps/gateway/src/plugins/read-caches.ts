import fp from "fastify-plugin";
import type { FastifyInstance } from "fastify";
import type { ChangeFeedHandlers, SessionPrincipal } from "@catalog/db";
import { ReadCache } from "../read-cache.js";

export interface ReadCaches {
  /** Session principals by cookie token; group "sessions". */
  sessions: ReadCache<SessionPrincipal | null>;
  /** Catalog list pages, serialized JSON; grouped by org id. */
  catalog: ReadCache<string>;
}

/** Opens the database's change feed with the caches' handlers (a seam: tests hold notifications back). */
export type ChangeFeedOpener = (handlers: ChangeFeedHandlers) => { close(): Promise<void> };

declare module "fastify" {
  interface FastifyInstance {
    caches: ReadCaches;
  }
}

/**
 * The hot reads (who is this session, a page of the catalog) are served from memory, kept
 * right by the database's change notifications: a committed change from any process drops what
 * it touched within milliseconds. Until the feed is connected, and whenever it is lost, every
 * read goes to PostgreSQL.
 */
export const readCachesPlugin = fp(
  async (app: FastifyInstance, { openFeed }: { openFeed: ChangeFeedOpener }) => {
    const caches: ReadCaches = {
      sessions: new ReadCache({ maxEntries: 20_000, maxAgeMs: 60_000 }),
      // Pages are up to ~200 KB each: bound the memory, not only the count.
      catalog: new ReadCache({ maxEntries: 5_000, maxAgeMs: 60_000, maxSize: 64 * 1024 * 1024, sizeOf: (body) => body.length }),
    };
    const all = [caches.sessions, caches.catalog];
    const feed = openFeed({
      onChange: (change) => (change.kind === "sessions" ? caches.sessions.clear() : caches.catalog.invalidate(change.orgId)),
      onConnected: () => all.forEach((c) => (c.enabled = true)),
      onDisconnected: (error) => {
        all.forEach((c) => (c.enabled = false));
        app.log.warn({ err: error }, "database change feed lost: read caches off until it reconnects");
      },
    });
    app.decorate("caches", caches);
    app.addHook("onClose", () => feed.close());
  },
  { name: "read-caches" },
);
