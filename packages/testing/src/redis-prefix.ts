import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const newRedisPrefix = (): string => `catalog-test-${randomBytes(4).toString("hex")}`;

/** Deletes every key under `prefix`, so a test run leaves nothing behind. */
export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return deleted;
}
