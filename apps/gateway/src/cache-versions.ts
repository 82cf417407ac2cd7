import { randomUUID } from "node:crypto";
import type { RedisClient } from "@catalog/queue";

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
  /** The keys asked for since the last MGET was sent, and that MGET's coming answer. */
  private batch: { keys: Map<string, number>; values: Promise<(string | null)[]> } | null = null;

  constructor(
    private readonly redis: RedisClient,
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
   * The reads of every request that arrives in one turn of the event loop share one MGET, sent
   * when the turn ends: under load this makes the check a fraction of a round trip per request.
   * A read joins only an MGET not sent yet, so the values always come from after it was asked.
   */
  private async versions(keys: string[]): Promise<(string | null)[]> {
    if (!this.batch) {
      const batch = {
        keys: new Map<string, number>(),
        values: new Promise<(string | null)[]>((resolve) =>
          setImmediate(() => {
            this.batch = null;
            resolve(this.mget([...batch.keys.keys()]));
          }),
        ),
      };
      this.batch = batch;
    }
    const { keys: asked, values } = this.batch;
    for (const key of keys) if (!asked.has(key)) asked.set(key, asked.size);
    const all = await values;
    return keys.map((key) => all[asked.get(key)!] ?? null);
  }

  private async mget(keys: string[]): Promise<(string | null)[]> {
    let values: (string | null)[];
    try {
      values = await this.redis.mget(keys);
    } catch {
      return keys.map(() => null);
    }
    keys.forEach((key, i) => {
      if (values[i] === null) this.redis.set(key, randomUUID(), "NX").catch(() => {});
    });
    return values;
  }

  private catalogKey(orgId: string): string {
    return `${this.prefix}:read-cache:catalog:${orgId}`;
  }
}
