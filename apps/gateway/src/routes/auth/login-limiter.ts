import type { FastifyBaseLogger } from "fastify";
import type { RedisClient } from "@catalog/queue";
import { ServiceError, sha256 } from "@catalog/db";

export interface LoginBudgets {
  /** Failed logins allowed per address and account in a window: slows guessing one account's password. */
  perAccount: { max: number; windowSeconds: number };
  /** Failed logins allowed per address across all accounts: stops one address spraying many accounts. */
  perAddress: { max: number; windowSeconds: number };
}

// Each attempt reserves one failure on both counters before the password is checked, so a burst
// of parallel guesses cannot all slip past a check made before any of them failed; a success
// gives its reservation back, so signing in never eats the failure budget. A refused attempt
// also gives it back: it guessed nothing. Keys: per-address, per-address-and-account.
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
  /** The attempt did not fail (the password was right, or we could not check it): its reservation is given back. */
  notFailed(): Promise<void>;
}

/**
 * Budgets of failed logins, counted in Redis so that every gateway instance shares them. When
 * Redis is unreachable the limiter steps aside (as the general limiter does) rather than
 * locking everyone out.
 */
export function createLoginLimiter(redis: RedisClient, prefix: string, budgets: LoginBudgets, log: FastifyBaseLogger) {
  const keysOf = (address: string, email: string) => [
    `${prefix}:login-failures:address:${address}`,
    `${prefix}:login-failures:account:${address}:${sha256(email.trim().toLowerCase())}`,
  ];
  const limits = [budgets.perAddress, budgets.perAccount];

  /** Reserves one failure for this attempt, or throws this service's 429 naming the budget spent. */
  return async function attempt(address: string, email: string): Promise<LoginAttempt> {
    const keys = keysOf(address, email);
    let over: number;
    let waitMs: number;
    try {
      const args = limits.flatMap((l) => [l.max, l.windowSeconds * 1000]);
      [over, waitMs] = (await redis.eval(RESERVE, keys.length, ...keys, ...args)) as [number, number];
    } catch (error) {
      log.warn({ err: error }, "login limiter unavailable; letting the attempt through");
      return { async notFailed() {} };
    }
    if (over > 0) {
      const limit = limits[over - 1]!;
      const which = over === 1 ? "from this address" : "for this account from this address";
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new ServiceError(429,
        `this service's rate limit for failed logins was exceeded (${limit.max} failed logins ${which} per ${limit.windowSeconds} s); retry in ${seconds} s`,
        { "retry-after": String(seconds) });
    }
    return {
      async notFailed() {
        await redis.eval(REFUND, keys.length, ...keys).catch((error: unknown) => log.warn({ err: error }, "login limiter refund failed"));
      },
    };
  };
}
