import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { sha256 } from "@catalog/db";

/** Stamps of one request; `catalog` is undefined when the org was not known yet. */
export interface Stamps {
  session: string | null;
  catalog?: string | null;
}

const UNKNOWN: Stamps = { session: null, catalog: null };

/**
 * What every gateway instance knows about the freshness of its cached reads, kept in Redis and
 * written by the gateway that makes a change before it answers: a version per org's catalog and
 * a marker per signed-out session. A cached read is served only while the stamps read with it
 * are unchanged, so a write through any instance is seen at once by every instance, without
 * waiting for the database's change notification.
 *
 * Every stamp includes an epoch, a random value created when missing: emptying the prefix (the
 * `flush_redis` operation, a Redis restart without persistence) changes every stamp, so a lost
 * version or marker can never make an old entry look fresh. When Redis cannot be read, or the
 * epoch is missing, the stamps are null: no cache, PostgreSQL answers.
 */
export class CacheStamps {
  private readonly epochKey: string;

  constructor(private readonly redis: Redis, private readonly prefix: string) {
    this.epochKey = `${prefix}:read-cache:epoch`;
  }

  /** One round trip: the stamp of a session token and, when its org is known, of the org's catalog. */
  async read(token: string, orgId?: string): Promise<Stamps> {
    const keys = [this.epochKey, this.revokedKey(token)];
    if (orgId !== undefined) keys.push(this.catalogKey(orgId));
    const values = await this.mget(keys);
    if (!values) return UNKNOWN;
    const [epoch, revoked, version] = values;
    return {
      session: revoked === null ? epoch! : null,
      ...(orgId === undefined ? {} : { catalog: `${epoch}:${version ?? 0}` }),
    };
  }

  /** The stamp of an org's catalog. */
  async catalog(orgId: string): Promise<string | null> {
    const values = await this.mget([this.epochKey, this.catalogKey(orgId)]);
    return values ? `${values[0]}:${values[1] ?? 0}` : null;
  }

  /** After a write to the org's catalog commits, before it is answered. */
  async catalogChanged(orgId: string): Promise<void> {
    await this.redis.incr(this.catalogKey(orgId));
  }

  /** After a sign-out commits, before it is answered; the marker lasts as long as the session would have. */
  async sessionRevoked(token: string, expiresAt: Date): Promise<void> {
    await this.redis.set(this.revokedKey(token), "1", "PX", Math.max(1, expiresAt.getTime() - Date.now()));
  }

  /** The values, or null when Redis cannot answer or the epoch is missing (started here for the next reads). */
  private async mget(keys: string[]): Promise<(string | null)[] | null> {
    let values: (string | null)[];
    try {
      values = await this.redis.mget(keys);
    } catch {
      return null;
    }
    if (values[0] !== null) return values;
    this.redis.set(this.epochKey, randomUUID(), "NX").catch(() => {});
    return null;
  }

  // The token's hash, never the token: Redis holds nothing that signs anyone in.
  private revokedKey(token: string): string {
    return `${this.prefix}:read-cache:revoked:${sha256(token)}`;
  }

  private catalogKey(orgId: string): string {
    return `${this.prefix}:read-cache:catalog:${orgId}`;
  }
}
