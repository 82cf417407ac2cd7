import { Cluster, type Redis } from "ioredis";
import type { RedisClient } from "./connections.js";

const SCAN_COUNT = 1000;

/** SCAN's MATCH is a glob: text holding *, ?, [ or \ must not widen it. */
export const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, "\\$&");

/**
 * The keys matching the glob `pattern`, in batches with the node that holds them. SCAN sees one
 * node only, so on a cluster every master is scanned.
 */
export async function* scanMatching(
  redis: RedisClient,
  pattern: string,
): AsyncGenerator<{ node: Redis; keys: string[] }> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  if (nodes.length === 0) throw new Error("no Redis Cluster master is reachable");
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", SCAN_COUNT);
      if (keys.length > 0) yield { node, keys };
      cursor = next;
    } while (cursor !== "0");
  }
}

/**
 * Deletes every key matching the glob `pattern` and returns how many it deleted: one UNLINK per
 * key, since a cluster node's keys span slots that one multi-key command may not. UNLINK frees
 * memory in the background, so a large prefix does not block Redis.
 */
export async function unlinkMatching(redis: RedisClient, pattern: string): Promise<number> {
  let deleted = 0;
  for await (const { node, keys } of scanMatching(redis, pattern)) {
    const pipeline = node.pipeline();
    for (const key of keys) pipeline.unlink(key);
    for (const [error, n] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      deleted += n as number;
    }
  }
  return deleted;
}
