import { createHash } from "node:crypto";
import type { RedisClient } from "@catalog/queue";

// KEYS: the counters, then the keys to read. ARGV: how many counters, each counter's hits in this
// turn, each counter's window (ms). For each counter: add its hits, start its window if it is new,
// answer its count and the window's remaining time (what @fastify/rate-limit's RedisStore does with
// INCR, PEXPIRE on the first hit, else PTTL); then the values read (false for a missing key).
const TURN = `
local n = tonumber(ARGV[1])
local out = {}
for i = 1, n do
  local hits = tonumber(ARGV[1 + i])
  local window = tonumber(ARGV[1 + n + i])
  local current = redis.call('INCRBY', KEYS[i], hits)
  local ttl
  if current == hits then
    redis.call('PEXPIRE', KEYS[i], window)
    ttl = window
  else
    ttl = redis.call('PTTL', KEYS[i])
  end
  out[2 * i - 1] = current
  out[2 * i] = ttl
end
for j = n + 1, #KEYS do
  out[#out + 1] = redis.call('GET', KEYS[j])
end
return out`;
const TURN_SHA = createHash("sha1").update(TURN).digest("hex");

export type CountDone = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface Counter {
  window: number;
  waiting: CountDone[];
}

interface Batch {
  counters: Map<string, Counter>;
  /** Each key read, by its place in the answer. */
  reads: Map<string, number>;
  /** Null when Redis could not be read. */
  values: Promise<(string | null)[] | null>;
}

/**
 * What the requests that arrive in one turn of the event loop ask of Redis before any route runs
 * (the rate limiter's counters, the read caches' versions), sent as one command when the turn
 * ends: under load a fraction of a round trip per request instead of two each. Each request still
 * gets its own count, as if its INCR had been sent alone, so the limit is exactly as strict; a
 * read joins only a batch not sent yet, so its values always come from after it was asked. All
 * keys share the prefix's hash tag, so the script runs on one node of a Redis Cluster too.
 */
export class RedisTurn {
  private batch: Batch | null = null;

  constructor(private readonly redis: RedisClient) {}

  count(key: string, window: number, done: CountDone): void {
    const { counters } = this.current();
    const counter = counters.get(key);
    if (counter) counter.waiting.push(done);
    else counters.set(key, { window, waiting: [done] });
  }

  /** The keys' values (null for a missing key), or null when Redis cannot be read. */
  async read(keys: string[]): Promise<(string | null)[] | null> {
    const { reads, values } = this.current();
    for (const key of keys) if (!reads.has(key)) reads.set(key, reads.size);
    const all = await values;
    return all && keys.map((key) => all[reads.get(key)!] ?? null);
  }

  private current(): Batch {
    if (this.batch) return this.batch;
    let send!: () => void;
    const batch: Batch = {
      counters: new Map(),
      reads: new Map(),
      values: new Promise((resolve) => (send = () => resolve(this.send(batch)))),
    };
    this.batch = batch;
    setImmediate(() => {
      this.batch = null;
      send();
    });
    return batch;
  }

  private async send({ counters, reads }: Batch): Promise<(string | null)[] | null> {
    const readKeys = [...reads.keys()];
    if (counters.size === 0) return this.redis.mget(readKeys).catch(() => null);
    const counterKeys = [...counters.keys()];
    const waiting = [...counters.values()];
    const keys = [...counterKeys, ...readKeys];
    const args = [
      waiting.length,
      ...waiting.map((c) => c.waiting.length),
      ...waiting.map((c) => c.window),
    ];
    let answer: (number | string | null)[];
    try {
      answer = await this.script(keys, args);
    } catch (error) {
      for (const counter of waiting) for (const done of counter.waiting) done(error as Error);
      return null;
    }
    waiting.forEach((counter, i) => {
      const last = Number(answer[2 * i] ?? 0);
      const ttl = Number(answer[2 * i + 1] ?? 0);
      const first = last - counter.waiting.length + 1;
      counter.waiting.forEach((done, k) => done(null, { current: first + k, ttl }));
    });
    return readKeys.map((_, j) => (answer[2 * waiting.length + j] as string | null) ?? null);
  }

  private async script(keys: string[], args: number[]): Promise<(number | string | null)[]> {
    try {
      return (await this.redis.evalsha(TURN_SHA, keys.length, ...keys, ...args)) as never;
    } catch (error) {
      // A Redis that restarted or was flushed of scripts: send the script itself once.
      if (!String(error).includes("NOSCRIPT")) throw error;
      return (await this.redis.eval(TURN, keys.length, ...keys, ...args)) as never;
    }
  }
}
