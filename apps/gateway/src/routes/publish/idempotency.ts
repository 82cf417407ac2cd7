import { createHash, randomUUID } from "node:crypto";
import { ServiceError, invalid } from "@catalog/db";
import { publishKeys, type RedisClient } from "@catalog/queue";

/** How long a finished request's answer is replayed. */
const DONE_TTL_SECONDS = 24 * 3600;
/** Printable ASCII without spaces, as clients generate them (UUIDs, ULIDs, hashes). */
const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/;

type IdempotencyRecord =
  | { state: "pending"; bodyHash: string; claimId: string }
  | { state: "done"; bodyHash: string; response: unknown };

export type IdempotencyClaim<T> =
  | { replay: T }
  | {
      replay: null;
      /**
       * Throws a 503 once the claim's deadline is too close to start writing: the claim may lapse
       * meanwhile.
       */
      assertInTime(): void;
      complete(response: T): Promise<void>;
      abandon(): Promise<void>;
    };

/**
 * JSON with every object's keys sorted: the same request written in another key order is the same
 * request.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const hashOf = (body: unknown) => createHash("sha256").update(canonicalJson(body)).digest("hex");

// Only the claim's own holder may finish or give it back: after a lapse the key may be someone
// else's.
const REPLACE_IF_HELD = `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2], "EX", ARGV[3]) return 1 end return 0`;
const DELETE_IF_HELD = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;

/**
 * `Idempotency-Key` for one org: the first request with a key claims it; a repeat with the
 * same request (compared as parsed JSON, key order irrelevant) gets the stored answer, with
 * another request a 422, and while the first is still running a 409. The claim lasts only as
 * long as the request's own deadline (`deadlineMs`), so a gateway that dies mid-request does not
 * hold the key: once it lapses a retry runs the request. A request that fails gives its key
 * back; a finished one's answer is replayed for a day.
 */
export async function claimIdempotencyKey<T>(
  redis: RedisClient,
  prefix: string,
  orgId: string,
  key: string,
  body: unknown,
  deadlineMs: number,
): Promise<IdempotencyClaim<T>> {
  if (!KEY_SYNTAX.test(key))
    throw invalid("Idempotency-Key must be 1 to 255 printable characters without spaces");
  const redisKey = publishKeys(prefix).idempotency(
    orgId,
    createHash("sha256").update(key).digest("hex"),
  );
  const bodyHash = hashOf(body);
  const pending = JSON.stringify({
    state: "pending",
    bodyHash,
    claimId: randomUUID(),
  } satisfies IdempotencyRecord);
  const lapsesAt = Date.now() + deadlineMs;
  const claimed = await redis.set(redisKey, pending, "PX", deadlineMs, "NX");
  if (claimed !== "OK") {
    const raw = await redis.get(redisKey);
    const record = raw ? (JSON.parse(raw) as IdempotencyRecord) : null;
    if (!record) return claimIdempotencyKey(redis, prefix, orgId, key, body, deadlineMs);
    if (record.bodyHash !== bodyHash)
      throw invalid("this Idempotency-Key was already used with a different request body");
    if (record.state === "pending")
      throw new ServiceError(
        409,
        "a request with this Idempotency-Key is still being processed; retry shortly",
        { "retry-after": "1" },
      );
    return { replay: record.response as T };
  }
  // Writing must start early enough to finish before the claim lapses and a retry may run.
  const writeBy = lapsesAt - Math.min(5_000, deadlineMs / 2);
  return {
    replay: null,
    assertInTime() {
      if (Date.now() > writeBy) {
        throw new ServiceError(
          503,
          "the publish could not be started within its deadline; nothing was recorded: retry with the same Idempotency-Key",
          { "retry-after": "1" },
        );
      }
    },
    async complete(response: T) {
      const done = JSON.stringify({
        state: "done",
        bodyHash,
        response,
      } satisfies IdempotencyRecord);
      await redis.eval(REPLACE_IF_HELD, 1, redisKey, pending, done, DONE_TTL_SECONDS);
    },
    async abandon() {
      await redis.eval(DELETE_IF_HELD, 1, redisKey, pending);
    },
  };
}
