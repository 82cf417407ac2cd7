/**
 * Row locks are taken in one order everywhere, so that transactions that meet queue for rows
 * instead of deadlocking: sync logs before listings, and the rows of one table by id (see "Row
 * locks" in ARCHITECTURE.md). This is the query that locks the rows of `table` matching `where`
 * in that order, as a statement of its own or as the condition of an UPDATE:
 * `UPDATE t SET ... WHERE id IN (${lockInIdOrder("t", "...")})`. A plain UPDATE locks rows in
 * whatever order its plan reads them. With `skipLocked`, rows another transaction holds are left
 * out instead of waited for.
 */
export const lockInIdOrder = (table: string, where: string, { skipLocked = false } = {}) =>
  `SELECT id FROM ${table} WHERE ${where} ORDER BY id FOR UPDATE${skipLocked ? " SKIP LOCKED" : ""}`;
