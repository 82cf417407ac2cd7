export interface RetryPolicy {
  /** Channel calls per publish before it is dead. */
  attempts: number;
  /** First retry delay; it doubles with each attempt. */
  backoffMs: number;
}

/**
 * Exponential backoff with "equal jitter": half the delay fixed, half random, so retries of
 * many jobs that failed together (an outage) spread out instead of returning in one wave.
 */
export function retryDelay(policy: RetryPolicy, attemptsMade: number): number {
  const base = policy.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
  const capped = Math.min(base, 3_600_000);
  return Math.round(capped / 2 + Math.random() * (capped / 2));
}
