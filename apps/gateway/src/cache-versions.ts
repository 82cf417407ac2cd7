import { randomUUID } from "node:crypto";
import type { RedisClient } from "@catalog/queue";
import type { RedisTurn } from "./redis-turn.js";

/** The versions one request read; `catalog` is undefined when the org was not known yet. */
export interface Versions {
  sessions: string | null;
  catalog?: string | null;
}

/**
 * What every gateway instance knows about the freshness of its cached reads, kept in Redis and
 * changed by the gateway that makes a write before it answers it: a version of each org's
 * catalog, and one of the sessions (changed by every sign-out, as the database's notification
 * of it drops every cached session too). A cached read is served only while the version read
 * with it is unchanged, so a write through any instance is seen at once by every instance,
 * without waiting for the change feed.
 *
 * Versions are random, never counters: a key that disappears (the `flush_redis` operation, a
 * Redis restart without persistence) comes back with a value no entry was stored under. A
 * missing version is unknown (null, and started for the next reads), as is every version when
 * Redis cannot be read: no cache, PostgreSQL answers.
 */
export class CacheVersions {
  private readonly sessionsKey: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly turn: RedisTurn,
    private readonly prefix: string,
  ) {
    this.sessionsKey = `${prefix}:read-cache:sessions`;
  }

  /** One round trip: the sessions' version and, when the org is known, its catalog's. */
  async read(orgId?: string): Promise<Versions> {
    if (orgId === undefined)
      return { sessions: (await this.versions([this.sessionsKey]))[0] ?? null };
    const [sessions = null, catalog = null] = await this.versions([
      this.sessionsKey,
      this.catalogKey(orgId),
    ]);
    return { sessions, catalog };
  }

  async catalog(orgId: string): Promise<string | null> {
    return (await this.versions([this.catalogKey(orgId)]))[0] ?? null;
  }

  /** After a write to the org's catalog commits, before it is answered. */
  async catalogChanged(orgId: string): Promise<void> {
    await this.redis.set(this.catalogKey(orgId), randomUUID());
  }

  /** After a sign-out commits, before it is answered. */
  async sessionsChanged(): Promise<void> {
    await this.redis.set(this.sessionsKey, randomUUID());
  }

  /**
   * The reads of every request that arrives in one turn of the event loop share one round trip,
   * with the rate limiter's counters (`RedisTurn`). A missing version is started for the next reads.
   */
  private async versions(keys: string[]): Promise<(string | null)[]> {
    const values = await this.turn.read(keys);
    if (!values) return keys.map(() => null);
    keys.forEach((key, i) => {
      if (values[i] === null) this.redis.set(key, randomUUID(), "NX").catch(() => {});
    });
    return values;
  }

  private catalogKey(orgId: string): string {
    return `${this.prefix}:read-cache:catalog:${orgId}`;
  }
}
