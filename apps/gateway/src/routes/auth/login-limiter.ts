import type { FastifyBaseLogger } from "fastify";
import type { RedisClient } from "@catalog/queue";
import { sha256 } from "@catalog/db";
import { reserveBudgets, type Budget, type Counter } from "./request-budgets.js";

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
  const reserve = (counters: Counter[], advice = "") =>
    reserveBudgets(redis, log, counters, "failed logins", advice);

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
