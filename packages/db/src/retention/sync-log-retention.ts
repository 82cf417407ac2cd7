import type pg from "pg";

/**
 * One batch of the sync-log sweep of one org: the next `$5` sync logs older than the success
 * cut-off, in (created_at, id) order after the last one looked at (the (org_id, created_at) index),
 * of which those that may go are deleted. The same statement, so one short transaction.
 *
 * A sync log may go when it is past its status's retention and:
 * - it is finished: `queued` and `running` are work still to do (recovery after a Redis loss reads
 *   them), `dead` ones are the dead-letter queue, which an operator replays or purges (a purge
 *   makes them `failed`, which then age out);
 * - it is not the latest of its product on its store while that listing exists: the product's
 *   screen always shows each listing's last outcome;
 * - in a publish run, by its cell (run, product, store) as a whole: the cell's newest attempt
 *   decides, by its status and age, for every attempt of the cell. A run's view shows each cell's
 *   newest attempt: removing a newer success while an older failure stays would show the cell
 *   failed again (and "retry failed" would publish it again).
 */
const SWEEP_BATCH = `
WITH scanned AS MATERIALIZED (
  SELECT s.ctid AS tid, s.id, s.created_at, s.status, s.product_id, s.destination_account_id, s.run_id
  FROM sync_logs s
  WHERE s.org_id = $1::uuid AND s.created_at < $2::timestamp
    AND s.created_at >= $3::timestamp AND (s.created_at, s.id) > ($3::timestamp, $4::uuid)
  ORDER BY s.created_at, s.id
  LIMIT $5
), removable AS (
  SELECT c.tid FROM scanned c
  WHERE c.status IN ('succeeded', 'failed')
    AND (
      EXISTS (
        SELECT 1 FROM sync_logs n
        WHERE n.product_id = c.product_id AND n.destination_account_id = c.destination_account_id
          AND (n.created_at, n.id) > (c.created_at, c.id)
      )
      OR NOT EXISTS (
        SELECT 1 FROM listings l
        WHERE l.product_id = c.product_id AND l.destination_account_id = c.destination_account_id
      )
    )
    AND CASE WHEN c.run_id IS NULL
      THEN c.status = 'succeeded' OR c.created_at < $6::timestamp
      ELSE coalesce((
        SELECT (h.status = 'succeeded' AND h.created_at < $2::timestamp)
          OR (h.status = 'failed' AND h.created_at < $6::timestamp)
        FROM sync_logs h
        WHERE h.run_id = c.run_id AND h.product_id = c.product_id
          AND h.destination_account_id = c.destination_account_id
        ORDER BY h.created_at DESC, h.id DESC
        LIMIT 1
      ), false)
    END
), gone AS (
  DELETE FROM sync_logs d USING removable r
  WHERE d.ctid = r.tid AND d.status IN ('succeeded', 'failed')
  RETURNING 1
), last AS (
  SELECT created_at, id FROM scanned ORDER BY created_at DESC, id DESC LIMIT 1
)
SELECT (SELECT count(*) FROM scanned)::int AS scanned, (SELECT count(*) FROM gone)::int AS removed,
  (SELECT created_at::text FROM last) AS last_at, (SELECT id::text FROM last) AS last_id`;

const FIRST_AT = "-infinity";
const FIRST_ID = "00000000-0000-0000-0000-000000000000";

export interface SweepSteps {
  /** Runs between batches: the pause, and the check that the pass may go on. */
  between(): Promise<void>;
  /** Reports a batch's removals. */
  removed(count: number): void;
}

/** Removes the org's sync logs that retention allows; returns how many. */
export async function sweepSyncLogs(
  client: pg.ClientBase,
  orgId: string,
  cutoffs: { success: string; failure: string },
  batchSize: number,
  steps: SweepSteps,
): Promise<number> {
  let after = { at: FIRST_AT, id: FIRST_ID };
  let total = 0;
  for (;;) {
    const { rows } = await client.query<{
      scanned: number;
      removed: number;
      last_at: string | null;
      last_id: string | null;
    }>(SWEEP_BATCH, [orgId, cutoffs.success, after.at, after.id, batchSize, cutoffs.failure]);
    const batch = rows[0]!;
    total += batch.removed;
    if (batch.removed > 0) steps.removed(batch.removed);
    if (batch.scanned < batchSize || !batch.last_at || !batch.last_id) return total;
    after = { at: batch.last_at, id: batch.last_id };
    await steps.between();
  }
}
