import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/** A lock in Redis that only its holder can renew or release. */
export class ItemLock {
  private constructor(private readonly redis: Redis, private readonly key: string, private readonly token: string, private readonly ttlMs: number) {}

  static async acquire(redis: Redis, key: string, ttlMs: number): Promise<ItemLock | null> {
    const token = randomUUID();
    const ok = await redis.set(key, token, "PX", ttlMs, "NX");
    return ok === "OK" ? new ItemLock(redis, key, token, ttlMs) : null;
  }

  renew(): Promise<unknown> {
    return this.redis.eval(RENEW, 1, this.key, this.token, this.ttlMs);
  }

  release(): Promise<unknown> {
    return this.redis.eval(RELEASE, 1, this.key, this.token);
  }
}
