import type { RedisClient } from "./connections.js";
import { tracing } from "@catalog/tracing";
import { publishKeys } from "./publish-keys.js";

// A lane takes a destination's jobs a batch at a time and gives them back, or removes them once
// PostgreSQL holds their outcome, in one script each: BullMQ's own moveToActive and
// moveToFinished cost about 30 Redis commands a job (events, metrics, retention of finished jobs),
// which was most of a publish job's Redis traffic. The scripts keep BullMQ's layout, so its queue
// counts, its stalled-job check, the producers' adds and its Job methods (moveToDelayed,
// moveToFailed, used on the rare failure paths) all still apply: a taken job is in `active` with
// `<job key>:lock` holding the lane's token, as a job BullMQ moved there.
//
// Publish queues are never paused and their jobs carry no priority (PUBLISH_JOB_OPTIONS), so the
// scripts leave `paused` and `prioritized` alone; a paused queue gives nothing.

/**
 * Takes up to ARGV[3] jobs: due delayed jobs join the wait list first (as BullMQ does), then each
 * job moves from `wait` to `active` with its lock (the lane's token) and the per (product,
 * destination) lock. A job whose product lock someone else holds (another lane publishing that
 * product to that destination) is delayed a second, no attempt spent. KEYS: wait, active,
 * delayed, meta. ARGV: job key prefix ("<queue>:"), now (ms), most jobs, token, lock ms, product
 * lock prefix (keys.lock("", "") minus its ":"), destination id, "1" when the process traces.
 * Returns [id, data or false, ...], with each job's trace context (its producer's, which BullMQ's
 * telemetry keeps in the job's options as `tm`) after its data when the process traces.
 */
const TAKE = `
if redis.call('HEXISTS', KEYS[4], 'paused') == 1 then return {} end
local q, now, max, token, lockMs = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
local due = redis.call('ZRANGEBYSCORE', KEYS[3], 0, (now + 1) * 0x1000 - 1, 'LIMIT', 0, 1000)
if #due > 0 then
  redis.call('ZREM', KEYS[3], unpack(due))
  redis.call('LPUSH', KEYS[1], unpack(due))
end
local out = {}
for _ = 1, max do
  local id = redis.call('RPOPLPUSH', KEYS[1], KEYS[2])
  if not id then break end
  local jobKey = q .. id
  local data = redis.call('HGET', jobKey, 'data')
  local free = true
  if data then
    local ok, job = pcall(cjson.decode, data)
    if ok and type(job) == 'table' and type(job['productId']) == 'string' then
      free = redis.call('SET', ARGV[6] .. job['productId'] .. ':' .. ARGV[7], token, 'PX', lockMs, 'NX')
    end
  end
  if free then
    redis.call('SET', jobKey .. ':lock', token, 'PX', lockMs)
    out[#out + 1] = id
    out[#out + 1] = data or false
    if ARGV[8] == '1' then
      local ok, opts = pcall(cjson.decode, redis.call('HGET', jobKey, 'opts') or 'null')
      out[#out + 1] = ok and type(opts) == 'table' and type(opts['tm']) == 'string' and opts['tm'] or false
    end
  else
    redis.call('LREM', KEYS[2], -1, id)
    redis.call('ZADD', KEYS[3], (now + 1000) * 0x1000, id)
  end
end
return out`;

/**
 * Ends a batch: the jobs done (PostgreSQL holds their outcome) leave Redis altogether, the jobs
 * not run go back to the head of the wait list in their order, and the lane's locks are released.
 * A job whose locks another worker holds now (they expired and the stalled check gave the job to
 * someone else, who took the product lock with it) is left to that worker: the product lock,
 * which this lane took with the job, says whose the job is, so one GET decides for both locks.
 * KEYS: wait, active. ARGV: job key prefix, token, number done, number given back, then per job
 * done and per job given back its id and its product lock key ("" when it has none), then other
 * lock keys to release.
 */
const END = `
local q, token, nDone, nBack = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local function mine(id, productLock)
  local key = productLock ~= '' and productLock or (q .. id .. ':lock')
  local holder = redis.call('GET', key)
  if holder == token then return true end
  if holder then return false end
  holder = productLock ~= '' and redis.call('GET', q .. id .. ':lock')
  return holder == token or not holder
end
local function unlock(id, productLock)
  if productLock ~= '' then redis.call('DEL', q .. id .. ':lock', productLock)
  else redis.call('DEL', q .. id .. ':lock') end
end
local backFrom = 5 + 2 * nDone
for i = 5, backFrom - 1, 2 do
  local id, productLock = ARGV[i], ARGV[i + 1]
  if mine(id, productLock) then
    unlock(id, productLock)
    redis.call('LREM', KEYS[2], -1, id)
    redis.call('UNLINK', q .. id, q .. id .. ':logs')
  end
end
for i = backFrom + 2 * nBack - 2, backFrom, -2 do
  local id, productLock = ARGV[i], ARGV[i + 1]
  if mine(id, productLock) then
    unlock(id, productLock)
    if redis.call('LREM', KEYS[2], -1, id) > 0 then redis.call('RPUSH', KEYS[1], id) end
  end
end
for i = backFrom + 2 * nBack, #ARGV do
  if redis.call('GET', ARGV[i]) == token then redis.call('DEL', ARGV[i]) end
end
return 0`;

/** Renews the locks this token holds. ARGV: token, lock ms, keys. */
const RENEW = `
local n = 0
for i = 3, #ARGV do
  if redis.call('GET', ARGV[i]) == ARGV[1] then
    redis.call('PEXPIRE', ARGV[i], ARGV[2])
    n = n + 1
  end
end
return n`;

/** A job a lane took: its id (= sync log id) and its payload as stored (null when Redis lost it). */
export interface TakenJob {
  id: string;
  data: string | null;
  /** The trace context its producer propagated (only read when this process traces). */
  traceMetadata?: string | null;
}

/** A job of a batch and the product lock the lane took with it (null when it took none). */
export interface BatchJobLock {
  id: string;
  productLock: string | null;
}

/** The Redis side of a lane's batches on one destination's queue (see the scripts above). */
export class PublishBatches {
  private readonly queueKey: string;
  private readonly lockPrefix: string;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    private readonly destinationId: string,
    private readonly token: string,
    private readonly lockMs: number,
  ) {
    const keys = publishKeys(prefix);
    this.queueKey = keys.bullQueue(destinationId);
    // The script builds product lock keys itself: they must be exactly the ones keys.lock() names.
    this.lockPrefix = keys.lock("", "").slice(0, -":".length);
    if (keys.lock("p", "d") !== `${this.lockPrefix}p:d`)
      throw new Error("product lock keys are not <prefix><product id>:<destination id>");
  }

  private key(type: string) {
    return `${this.queueKey}:${type}`;
  }

  /** The per (product, destination) lock key of a job's product. */
  productLock(productId: string): string {
    return `${this.lockPrefix}${productId}:${this.destinationId}`;
  }

  /** A taken job with the product lock the take script took with it (from its payload). */
  lockOf(job: TakenJob): BatchJobLock {
    try {
      const productId = (JSON.parse(job.data ?? "null") as { productId?: unknown } | null)
        ?.productId;
      return {
        id: job.id,
        productLock: typeof productId === "string" ? this.productLock(productId) : null,
      };
    } catch {
      return { id: job.id, productLock: null };
    }
  }

  /** Job lock keys, for renewing them. */
  jobLock(jobId: string): string {
    return `${this.queueKey}:${jobId}:lock`;
  }

  async take(max: number): Promise<TakenJob[]> {
    const traced = tracing();
    const flat = (await this.redis.eval(
      TAKE,
      4,
      this.key("wait"),
      this.key("active"),
      this.key("delayed"),
      this.key("meta"),
      `${this.queueKey}:`,
      Date.now(),
      max,
      this.token,
      this.lockMs,
      this.lockPrefix,
      this.destinationId,
      traced ? "1" : "0",
    )) as (string | null)[];
    const jobs: TakenJob[] = [];
    const stride = traced ? 3 : 2;
    for (let i = 0; i < flat.length; i += stride)
      jobs.push({
        id: flat[i]!,
        data: flat[i + 1] ?? null,
        ...(traced ? { traceMetadata: flat[i + 2] ?? null } : {}),
      });
    return jobs;
  }

  /**
   * Removes the jobs `done` (their outcome is in PostgreSQL) with their locks, puts `back` at the
   * head of the wait list, and releases `otherLocks` (those of jobs BullMQ moved on). Each job comes
   * with its product lock key, null when it has none.
   */
  async end(done: BatchJobLock[], back: BatchJobLock[], otherLocks: string[] = []): Promise<void> {
    if (done.length + back.length + otherLocks.length === 0) return;
    const pairs = (jobs: BatchJobLock[]) => jobs.flatMap((j) => [j.id, j.productLock ?? ""]);
    await this.redis.eval(
      END,
      2,
      this.key("wait"),
      this.key("active"),
      `${this.queueKey}:`,
      this.token,
      done.length,
      back.length,
      ...pairs(done),
      ...pairs(back),
      ...otherLocks,
    );
  }

  /** Renews the given locks (job and product locks of the batch in flight) while this lane holds them. */
  async renew(lockKeys: string[]): Promise<void> {
    if (lockKeys.length === 0) return;
    await this.redis.eval(RENEW, 1, lockKeys[0]!, this.token, this.lockMs, ...lockKeys);
  }
}
