import type { Db } from "./client.js";

/**
 * A list's total when counting every matching row would cost more than the page itself: the rows
 * are counted up to `limit` past the page's start (`offset`). Past that the total is a lower
 * bound (`exact: false`) that still reaches the next pages; nobody pages further in one go.
 * `where` is SQL over `table` with its parameters from `$1`.
 */
export interface CappedCount {
  total: number;
  exact: boolean;
}

export async function cappedCount(
  db: Db,
  table: string,
  where: { sql: string; params: unknown[] },
  offset: number,
  limit: number,
): Promise<CappedCount> {
  const upTo = offset + limit;
  const params = [...where.params, upTo + 1];
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} WHERE ${where.sql} LIMIT $${params.length}) c`,
    ...params,
  );
  const n = row?.n ?? 0;
  return { total: Math.min(n, upTo), exact: n <= upTo };
}
