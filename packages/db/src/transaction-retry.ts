/**
 * PostgreSQL's codes for a transaction it aborted so that another could go on: a deadlock, a
 * serialization failure.
 */
const CONFLICT_CODES = new Set(["40P01", "40001"]);

/**
 * True when PostgreSQL aborted the transaction for a deadlock (40P01) or a serialization failure
 * (40001): running it again may well succeed. Prisma reports them as P2034 from its own queries
 * and as P2010 from raw ones, the driver's code in both; a statement sent on a transaction's
 * connection (transactionConnection) throws the driver's error itself.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, meta } = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
  };
  return (
    code === "P2034" ||
    CONFLICT_CODES.has(String(code)) ||
    CONFLICT_CODES.has(String(meta?.driverAdapterError?.cause?.originalCode))
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `transaction` (a function that opens one transaction and does all of its work inside)
 * again when PostgreSQL aborted it for a deadlock or a serialization failure, `attempts` times in
 * all, after a short random pause so that the two do not meet again in step. Row locks are taken
 * in one order (see "Row locks" in ARCHITECTURE.md), so this is the safety net for what ordering
 * cannot cover. Any other error, or the last conflict, is thrown.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      await pause(10 + Math.random() * 40 * attempt);
    }
  }
}
