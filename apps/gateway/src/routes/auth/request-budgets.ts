// Budgets of requests counted in Redis, so that every gateway instance shares them: failed logins
// (login-limiter.ts) and password reset requests (password-reset.ts).
import type { FastifyBaseLogger } from "fastify";
import type { RedisClient } from "@catalog/queue";
import { ServiceError } from "@catalog/db";

export interface Budget {
  max: number;
  windowSeconds: number;
}

// Each attempt reserves one request on every counter of its budgets before it is carried out, so
// a burst of parallel attempts cannot all slip past a check made before any of them counted; a
// login that succeeds gives its reservation back, so signing in never eats the failure budget. A
// refused attempt also gives it back: it did nothing.
const RESERVE = `
local over, wait = 0, 0
for i, key in ipairs(KEYS) do
  local n = redis.call("INCR", key)
  if n == 1 then redis.call("PEXPIRE", key, ARGV[2 * i]) end
  if n > tonumber(ARGV[2 * i - 1]) then
    if over == 0 then over = i end
    wait = math.max(wait, redis.call("PTTL", key))
  end
end
if over > 0 then for _, key in ipairs(KEYS) do redis.call("DECR", key) end end
return { over, wait }`;
const REFUND = `for _, key in ipairs(KEYS) do if redis.call("EXISTS", key) == 1 then redis.call("DECR", key) end end return 0`;

export interface LoginAttempt {
  /**
   * The attempt did not fail (the password was right, or we could not check it): its reservation is
   * given back.
   */
  notFailed(): Promise<void>;
}

/**
 * One counter: its Redis key, its budget, and whose requests it counts (for the 429's message).
 */
export interface Counter {
  key: string;
  budget: Budget;
  whose: string;
}

/**
 * Reserves one request on every counter, or throws this service's 429 naming the first budget
 * spent, `what` it counts (as "failed logins") and `advice`. When Redis is unreachable it steps
 * aside (as the general limiter does) rather than locking everyone out.
 */
export async function reserveBudgets(
  redis: RedisClient,
  log: FastifyBaseLogger,
  counters: Counter[],
  what: string,
  advice = "",
): Promise<LoginAttempt> {
  const keys = counters.map((c) => c.key);
  let over: number;
  let waitMs: number;
  try {
    const args = counters.flatMap((c) => [c.budget.max, c.budget.windowSeconds * 1000]);
    [over, waitMs] = (await redis.eval(RESERVE, keys.length, ...keys, ...args)) as [number, number];
  } catch (error) {
    log.warn({ err: error }, `${what} limiter unavailable; letting the attempt through`);
    return { async notFailed() {} };
  }
  if (over > 0) {
    const { budget, whose } = counters[over - 1]!;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new ServiceError(
      429,
      `this service's rate limit for ${what} was exceeded (${budget.max} ${what} ${whose} per ${budget.windowSeconds} s); retry in ${seconds} s${advice}`,
      { "retry-after": String(seconds) },
    );
  }
  return {
    async notFailed() {
      await redis
        .eval(REFUND, keys.length, ...keys)
        .catch((error: unknown) => log.warn({ err: error }, `${what} limiter refund failed`));
    },
  };
}
