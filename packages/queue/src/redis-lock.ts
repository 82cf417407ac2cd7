import { randomUUID } from "node:crypto";
import type { RedisClient } from "@catalog/queue";

// Only the holder may renew or release: the lock may have expired and been taken meanwhile.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/** A lock (or lease) in Redis with a time to live, which only its holder can renew or release. */
export class RedisLock {
  private constructor(
    private readonly redis: RedisClient,
    readonly key: string,
    private readonly token: string,
    private readonly ttlMs: number,
  ) {}

  /** Null when someone else holds `key`. */
  static async acquire(redis: RedisClient, key: string, ttlMs: number): Promise<RedisLock | null> {
    const token = randomUUID();
    const ok = await redis.set(key, token, "PX", ttlMs, "NX");
    return ok === "OK" ? new RedisLock(redis, key, token, ttlMs) : null;
  }

  /** A lock its holder already took with `token` by other means (a script that chose the key). */
  static held(redis: RedisClient, key: string, token: string, ttlMs: number): RedisLock {
    return new RedisLock(redis, key, token, ttlMs);
  }

  /** False when the lock was lost (it expired and may belong to someone else now). */
  async renew(): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, this.key, this.token, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key, this.token);
  }
}
