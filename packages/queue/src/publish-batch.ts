import type { RedisClient } from "./connections.js";
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
 * lock prefix (keys.lock("", "") minus its ":"), destination id. Returns [id, data or false, ...].
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
  else
    redis.call('LREM', KEYS[2], -1, id)
    redis.call('ZADD', KEYS[3], (now + 1000) * 0x1000, id)
  end
end
return out`;

/**
 * Ends a batch: the jobs done (PostgreSQL holds their outcome) leave Redis altogether, the jobs
 * not run go back to the head of the wait list in their order, and the lane's locks are released.
 * A job whose lock another worker holds now (the lock expired and the stalled check gave the job
 * to someone else) is left to that worker. KEYS: wait, active, stalled. ARGV: job key prefix,
 * token, number done, number given back, the done ids, the given-back ids, the product lock keys.
 */
const END = `
local q, token, nDone, nBack = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local function release(key)
  if redis.call('GET', key) == token then redis.call('DEL', key) end
end
local function owned(id)
  local holder = redis.call('GET', q .. id .. ':lock')
  return holder == token or not holder
end
for i = 5, 4 + nDone do
  local id = ARGV[i]
  if owned(id) then
    redis.call('DEL', q .. id .. ':lock')
    redis.call('LREM', KEYS[2], -1, id)
    redis.call('SREM', KEYS[3], id)
    redis.call('UNLINK', q .. id, q .. id .. ':logs')
  end
end
for i = 4 + nDone + nBack, 5 + nDone, -1 do
  local id = ARGV[i]
  if owned(id) then
    redis.call('DEL', q .. id .. ':lock')
    if redis.call('LREM', KEYS[2], -1, id) > 0 then redis.call('RPUSH', KEYS[1], id) end
  end
end
for i = 5 + nDone + nBack, #ARGV do release(ARGV[i]) end
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

  /** Job lock keys, for renewing them. */
  jobLock(jobId: string): string {
    return `${this.queueKey}:${jobId}:lock`;
  }

  async take(max: number): Promise<TakenJob[]> {
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
    )) as (string | null)[];
    const jobs: TakenJob[] = [];
    for (let i = 0; i < flat.length; i += 2) jobs.push({ id: flat[i]!, data: flat[i + 1] ?? null });
    return jobs;
  }

  /**
   * Removes the jobs `done` (their outcome is in PostgreSQL), puts `back` at the head of the wait
   * list, and releases `productLocks`.
   */
  async end(done: string[], back: string[], productLocks: string[]): Promise<void> {
    if (done.length + back.length + productLocks.length === 0) return;
    await this.redis.eval(
      END,
      3,
      this.key("wait"),
      this.key("active"),
      this.key("stalled"),
      `${this.queueKey}:`,
      this.token,
      done.length,
      back.length,
      ...done,
      ...back,
      ...productLocks,
    );
  }

  /** Renews the given locks (job and product locks of the batch in flight) while this lane holds them. */
  async renew(lockKeys: string[]): Promise<void> {
    if (lockKeys.length === 0) return;
    await this.redis.eval(RENEW, 1, lockKeys[0]!, this.token, this.lockMs, ...lockKeys);
  }
}
