import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { ServiceError, invalid } from "@catalog/db";
import { publishKeys } from "@catalog/queue";

const TTL_SECONDS = 24 * 3600;
/** Printable ASCII without spaces, as clients generate them (UUIDs, ULIDs, hashes). */
const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/;

type IdempotencyRecord = { state: "pending"; bodyHash: string } | { state: "done"; bodyHash: string; response: unknown };

export type IdempotencyClaim<T> =
  | { replay: T }
  | { replay: null; complete(response: T): Promise<void>; abandon(): Promise<void> };

const hashOf = (body: unknown) => createHash("sha256").update(JSON.stringify(body)).digest("hex");

/**
 * `Idempotency-Key` for one org: the first request with a key claims it; a repeat with the
 * same body gets the stored answer, with another body a 422, and while the first is still
 * running a 409. A request that fails gives its key back, so the client can simply retry.
 * Records live in Redis for a day.
 */
export async function claimIdempotencyKey<T>(redis: Redis, prefix: string, orgId: string, key: string, body: unknown): Promise<IdempotencyClaim<T>> {
  if (!KEY_SYNTAX.test(key)) throw invalid("Idempotency-Key must be 1 to 255 printable characters without spaces");
  const redisKey = publishKeys(prefix).idempotency(orgId, createHash("sha256").update(key).digest("hex"));
  const bodyHash = hashOf(body);
  const pending: IdempotencyRecord = { state: "pending", bodyHash };
  const claimed = await redis.set(redisKey, JSON.stringify(pending), "EX", TTL_SECONDS, "NX");
  if (claimed !== "OK") {
    const raw = await redis.get(redisKey);
    const record = raw ? (JSON.parse(raw) as IdempotencyRecord) : null;
    if (!record) return claimIdempotencyKey(redis, prefix, orgId, key, body);
    if (record.bodyHash !== bodyHash) throw invalid("this Idempotency-Key was already used with a different request body");
    if (record.state === "pending") throw new ServiceError(409, "a request with this Idempotency-Key is still being processed; retry shortly", { "retry-after": "1" });
    return { replay: record.response as T };
  }
  return {
    replay: null,
    async complete(response: T) {
      const done: IdempotencyRecord = { state: "done", bodyHash, response };
      await redis.set(redisKey, JSON.stringify(done), "EX", TTL_SECONDS);
    },
    async abandon() {
      await redis.del(redisKey);
    },
  };
}
