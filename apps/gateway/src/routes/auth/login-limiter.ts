import type { FastifyBaseLogger } from "fastify";
import type { RedisClient } from "@catalog/queue";
import { ServiceError, sha256 } from "@catalog/db";

interface Budget {
  max: number;
  windowSeconds: number;
}

export interface LoginBudgets {
  /**
   * Failed logins allowed per address and account in a window: slows guessing one account's
   * password.
   */
  perAccount: Budget;
  /**
   * Failed logins allowed per address across all accounts: stops one address spraying many
   * accounts.
   */
  perAddress: Budget;
  /**
   * Failed logins allowed per device cookie: a browser that signed in to the account before, which
   * the two above do not limit.
   */
  perDevice: Budget;
}

/**
 * The account a login names, as the budgets and device cookies key it: the email's SHA-256, in any
 * case.
 */
export const accountKey = (email: string): string => sha256(email.trim().toLowerCase());

// Each attempt reserves one failure on every counter of its budgets before the password is
// checked, so a burst of parallel guesses cannot all slip past a check made before any of them
// failed; a success gives its reservation back, so signing in never eats the failure budget. A
// refused attempt also gives it back: it guessed nothing.
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
 * One counter of failed logins: its Redis key, its budget, and whose failures it counts (for the
 * 429's message).
 */
interface Counter {
  key: string;
  budget: Budget;
  whose: string;
}

/**
 * Budgets of failed logins, counted in Redis so that every gateway instance shares them. A
 * browser holding a valid device cookie for the account is limited by that cookie's budget
 * alone (`fromDevice`); any other attempt by its address's budget and its address and account's
 * (`fromAddress`). When Redis is unreachable the limiter steps aside (as the general limiter
 * does) rather than locking everyone out.
 */
export function createLoginLimiter(
  redis: RedisClient,
  prefix: string,
  budgets: LoginBudgets,
  log: FastifyBaseLogger,
) {
  /**
   * Reserves one failure on every counter, or throws this service's 429 naming the first budget
   * spent (and `advice`).
   */
  async function reserve(counters: Counter[], advice = ""): Promise<LoginAttempt> {
    const keys = counters.map((c) => c.key);
    let over: number;
    let waitMs: number;
    try {
      const args = counters.flatMap((c) => [c.budget.max, c.budget.windowSeconds * 1000]);
      [over, waitMs] = (await redis.eval(RESERVE, keys.length, ...keys, ...args)) as [
        number,
        number,
      ];
    } catch (error) {
      log.warn({ err: error }, "login limiter unavailable; letting the attempt through");
      return { async notFailed() {} };
    }
    if (over > 0) {
      const { budget, whose } = counters[over - 1]!;
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new ServiceError(
        429,
        `this service's rate limit for failed logins was exceeded (${budget.max} failed logins ${whose} per ${budget.windowSeconds} s); retry in ${seconds} s${advice}`,
        { "retry-after": String(seconds) },
      );
    }
    return {
      async notFailed() {
        await redis
          .eval(REFUND, keys.length, ...keys)
          .catch((error: unknown) => log.warn({ err: error }, "login limiter refund failed"));
      },
    };
  }

  return {
    /** A login from a browser without a valid device cookie for the account. */
    fromAddress: (address: string, email: string) =>
      reserve(
        [
          {
            key: `${prefix}:login-failures:address:${address}`,
            budget: budgets.perAddress,
            whose: "from this address",
          },
          {
            key: `${prefix}:login-failures:account:${address}:${accountKey(email)}`,
            budget: budgets.perAccount,
            whose: "for this account from this address",
          },
        ],
        ", or sign in from a browser that has signed in to this account before",
      ),
    /**
     * A login from a browser holding the device cookie `deviceId`, valid for the account it names.
     */
    fromDevice: (deviceId: string) =>
      reserve([
        {
          key: `${prefix}:login-failures:device:${deviceId}`,
          budget: budgets.perDevice,
          whose: "from this browser for this account",
        },
      ]),
  };
}
