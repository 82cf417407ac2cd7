/**
 * The slowest a persisted document import is allowed to go before its transaction is given up:
 * 200 KB of upload a second (about 370 Shopify CSV rows a second; the slowest measured, on a
 * 2-core machine at load average 24-35, was 850 rows a second).
 */
const SLOWEST_BYTES_PER_SECOND = 200 * 1024;

/**
 * How long a persisted document import of `bytes` may hold its one transaction open: `baseMs`,
 * or longer for a document too large to be read and written within it at the slowest allowed
 * pace. With the default upload cap (50 MB) this is `baseMs`; a 1,000,000-row CSV (about 550 MB)
 * gets about 45 minutes instead of being rolled back part way at 15.
 */
export function transactionLimitMs(baseMs: number, bytes: number): number {
  return Math.max(baseMs, Math.ceil((bytes / SLOWEST_BYTES_PER_SECOND) * 1000));
}
