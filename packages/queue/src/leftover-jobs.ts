import type { RedisClient } from "./connections.js";

// For each job id that exists in the queue: is it finished (completed or failed), or, when
// `thorough`, in none of the queue's lists at all? Both kind of leftover make an add with the
// same id a no-op. The list checks are LPOS scans, so they are asked for only after Redis lost
// data, when the lists have just been emptied.
// KEYS[1]: the queue's completed set, declared so that a cluster runs the script on the queue's
// node (the other keys share its slot). ARGV: queue key prefix ("<prefix>:bull:<queue>:"), "1"
// for thorough, then the ids.
const FIND_LEFTOVERS = `
local q = ARGV[1]
local out = {}
for i = 3, #ARGV do
  local id = ARGV[i]
  if redis.call('EXISTS', q .. id) == 1 then
    local leftover = redis.call('ZSCORE', KEYS[1], id) or redis.call('ZSCORE', q .. 'failed', id)
    if not leftover and ARGV[2] == '1' then
      leftover = not (redis.call('ZSCORE', q .. 'delayed', id) or redis.call('ZSCORE', q .. 'prioritized', id)
        or redis.call('ZSCORE', q .. 'waiting-children', id) or redis.call('LPOS', q .. 'wait', id)
        or redis.call('LPOS', q .. 'active', id) or redis.call('LPOS', q .. 'paused', id))
    end
    if leftover then out[#out + 1] = id end
  end
end
return out`;

/**
 * The ids among `ids` whose job in the queue (BullMQ keys under `queueKey`) is a leftover that
 * would swallow an add.
 */
export async function findLeftoverJobs(
  redis: RedisClient,
  queueKey: string,
  ids: string[],
  thorough: boolean,
): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await redis.eval(
    FIND_LEFTOVERS,
    1,
    `${queueKey}:completed`,
    `${queueKey}:`,
    thorough ? "1" : "0",
    ...ids,
  )) as string[];
}
