import { randomBytes } from "node:crypto";
import { redisKeyPrefix } from "@catalog/config";
import { escapeGlob, producerConnection, unlinkMatching, type RedisEndpoint } from "@catalog/queue";

export const newRedisPrefix = (): string => `catalog-test-${randomBytes(4).toString("hex")}`;

/**
 * Deletes every key under REDIS_PREFIX `prefix` and under the prefixes that extend it
 * (`prefix:anything`, as tests make their own), so a test run leaves nothing behind.
 */
export async function deleteRedisPrefix(endpoint: RedisEndpoint, prefix: string): Promise<number> {
  const redis = producerConnection(endpoint, { lazyConnect: true });
  await redis.connect();
  try {
    // `{prefix}:…` and `{prefix:…}:…`
    return await unlinkMatching(redis, `${escapeGlob(redisKeyPrefix(prefix).slice(0, -1))}[}:]*`);
  } finally {
    redis.disconnect();
  }
}
