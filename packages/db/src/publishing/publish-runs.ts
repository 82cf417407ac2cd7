import type { Db } from "../client.js";
import type { SyncStatus } from "../generated/enums.js";
import { isUuid } from "../ids.js";
import type { Page } from "../products.js";
import { lockInIdOrder } from "../row-locks.js";
import { notFound } from "../service-error.js";
import { retryOnConflict } from "../transaction-retry.js";
import {
  failureOf,
  RETRY_CAN_CHANGE,
  type FailureRecord,
  type FailureRow,
} from "./sync-failure.js";
import {
  newRecords,
  recordStatements,
  type PublishJobRecord,
  type RunActor,
} from "./publish-requests.js";

// A publish run is one publish request. Its cells (product x destination) are read from the
// sync logs: the latest one of each pair with the run's id, since a retry adds newer ones.

export interface RunCell {
  productId: string;
  destinationAccountId: string;
  syncLogId: string;
  status: SyncStatus;
  attempts: number;
  error: string | null;
  /** What the failure needs, and whether a retry can change it now (null unless failed or dead). */
  failure: (FailureRecord & { retryable: boolean }) | null;
  remoteUrl: string | null;
  finishedAt: string | null;
}

export type RunCounts = Record<SyncStatus, number>;

export interface RunHead {
  id: string;
  createdAt: string;
  /** `name`: the user's email or the extension key's name (null for the service, or one gone). */
  createdBy: RunActor & { name: string | null };
  productCount: number;
  destinationCount: number;
  /** The first product's title (as it is now, or as it was once deleted): what names the run. */
  firstProductTitle: string | null;
  /** The destinations' names, in request order (a deleted one is left out). */
  destinationNames: string[];
}

export interface RunSummary extends RunHead {
  counts: RunCounts;
  finished: boolean;
}

export interface RunRecord extends RunHead {
  /**
   * In request order; a deleted product shows its title and SKU as they were when the run began.
   */
  products: { id: string; title: string; sku: string | null; deleted: boolean }[];
  /** In request order. */
  destinations: { id: string; channel: string; name: string; disconnected: boolean }[];
  cells: RunCell[];
}

const PENDING: readonly SyncStatus[] = ["queued", "running"];
const emptyCounts = (): RunCounts => ({ queued: 0, running: 0, succeeded: 0, failed: 0, dead: 0 });

export const isFinished = (counts: RunCounts) => PENDING.every((s) => counts[s] === 0);

export function countCells(cells: { status: SyncStatus }[]): RunCounts {
  const counts = emptyCounts();
  for (const c of cells) counts[c.status] += 1;
  return counts;
}

interface HeadRow {
  id: string;
  created_at: Date;
  actor_type: RunActor["type"];
  actor_id: string | null;
  actor_name: string | null;
  product_count: number;
  destination_count: number;
  first_title: string | null;
  destination_names: string[];
}

const toHead = (r: HeadRow): RunHead => ({
  id: r.id,
  createdAt: r.created_at.toISOString(),
  createdBy: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
  productCount: r.product_count,
  destinationCount: r.destination_count,
  firstProductTitle: r.first_title,
  destinationNames: r.destination_names,
});

/** What a run's head is read from, of `publish_runs r`: what tells one run from another. */
const HEAD_COLUMNS = `r.id, r.created_at, r.actor_type, r.actor_id,
  jsonb_array_length(r.products) AS product_count, cardinality(r.destination_ids) AS destination_count,
  CASE r.actor_type
    WHEN 'user' THEN (SELECT u.email FROM users u WHERE u.id = r.actor_id::uuid)
    WHEN 'apiKey' THEN (SELECT k.name FROM api_keys k WHERE k.id = r.actor_id::uuid)
  END AS actor_name,
  coalesce((SELECT p.title FROM products p WHERE p.id = (r.products->0->>'id')::uuid AND p.org_id = r.org_id),
    r.products->0->>'title') AS first_title,
  ARRAY(SELECT d.name FROM unnest(r.destination_ids) WITH ORDINALITY AS x(id, n)
    JOIN destination_accounts d ON d.id = x.id ORDER BY x.n) AS destination_names`;

// DISTINCT ON keeps the first row of each pair in this order: the newest attempt.
const LATEST_CELLS = `
SELECT DISTINCT ON (run_id, product_id, destination_account_id)
  run_id, id, product_id, destination_account_id, status, attempts, error, remote_url, finished_at,
  failure, failure_field, failure_reason
FROM sync_logs WHERE run_id = ANY($1::uuid[])
ORDER BY run_id, product_id, destination_account_id, created_at DESC, id DESC`;

interface CellRow extends FailureRow {
  run_id: string;
  id: string;
  product_id: string;
  destination_account_id: string;
  status: SyncStatus;
  attempts: number;
  error: string | null;
  remote_url: string | null;
  finished_at: Date | null;
  retryable: boolean;
}

const toCell = (r: CellRow): RunCell => {
  const failure = failureOf(r);
  return {
    productId: r.product_id,
    destinationAccountId: r.destination_account_id,
    syncLogId: r.id,
    status: r.status,
    attempts: r.attempts,
    error: r.error,
    failure: failure && { ...failure, retryable: r.retryable },
    remoteUrl: r.remote_url,
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
};

/** The latest cells of runs, each with whether a retry can change its outcome. */
const CELLS = `
SELECT c.*, ${RETRY_CAN_CHANGE} AS retryable FROM (${LATEST_CELLS}) c
LEFT JOIN products p ON p.id = c.product_id
LEFT JOIN destination_accounts d ON d.id = c.destination_account_id`;

/** The org's runs, newest first, each with its cell counts (one grouped query for the page). */
export async function listPublishRuns(
  db: Db,
  orgId: string,
  query: { page: number; pageSize: number },
): Promise<Page<RunSummary>> {
  const [rows, total] = await Promise.all([
    db.$queryRawUnsafe<HeadRow[]>(
      `SELECT ${HEAD_COLUMNS} FROM publish_runs r WHERE r.org_id = $1::uuid ORDER BY r.created_at DESC, r.id DESC OFFSET $2 LIMIT $3`,
      orgId,
      (query.page - 1) * query.pageSize,
      query.pageSize,
    ),
    db.publishRun.count({ where: { orgId } }),
  ]);
  const counted = await db.$queryRawUnsafe<{ run_id: string; status: SyncStatus; n: number }[]>(
    `SELECT run_id, status, count(*)::int AS n FROM (${LATEST_CELLS}) c GROUP BY run_id, status`,
    rows.map((r) => r.id),
  );
  const counts = new Map(rows.map((r) => [r.id, emptyCounts()]));
  for (const c of counted) counts.get(c.run_id)![c.status] = c.n;
  return {
    total,
    items: rows.map((r) => {
      const runCounts = counts.get(r.id)!;
      return { ...toHead(r), counts: runCounts, finished: isFinished(runCounts) };
    }),
  };
}

/** The heads of the org's runs among `ids` (what names each), in no particular order. */
export async function publishRunHeads(db: Db, orgId: string, ids: string[]): Promise<RunHead[]> {
  const runIds = [...new Set(ids)].filter(isUuid);
  if (runIds.length === 0) return [];
  const rows = await db.$queryRawUnsafe<HeadRow[]>(
    `SELECT ${HEAD_COLUMNS} FROM publish_runs r WHERE r.org_id = $1::uuid AND r.id = ANY($2::uuid[])`,
    orgId,
    runIds,
  );
  return rows.map(toHead);
}

// The run with its products as they are now (or as they were, once deleted) and its
// destinations, in one statement.
const RUN = `
SELECT ${HEAD_COLUMNS},
  (SELECT coalesce(jsonb_agg(jsonb_build_object(
      'id', e.item->>'id', 'title', coalesce(p.title, e.item->>'title'),
      'sku', CASE WHEN p.id IS NULL THEN e.item->'sku' ELSE to_jsonb(p.sku) END, 'deleted', p.id IS NULL) ORDER BY e.n), '[]'::jsonb)
    FROM jsonb_array_elements(r.products) WITH ORDINALITY AS e(item, n)
    LEFT JOIN products p ON p.id = (e.item->>'id')::uuid AND p.org_id = r.org_id) AS products,
  (SELECT coalesce(jsonb_agg(jsonb_build_object(
      'id', d.id, 'channel', d.channel, 'name', d.name, 'disconnected', d.disconnected_at IS NOT NULL) ORDER BY x.n), '[]'::jsonb)
    FROM unnest(r.destination_ids) WITH ORDINALITY AS x(id, n) JOIN destination_accounts d ON d.id = x.id) AS destinations
FROM publish_runs r WHERE r.id = $1::uuid AND r.org_id = $2::uuid`;

/**
 * One run of the org with its latest cells (two queries at once); 404 for another org's run, as for
 * a missing one.
 */
export async function getPublishRun(db: Db, orgId: string, runId: string): Promise<RunRecord> {
  if (!isUuid(runId)) throw notFound(`publish run ${runId}`);
  const [head, cells] = await Promise.all([
    db.$queryRawUnsafe<(HeadRow & Pick<RunRecord, "products" | "destinations">)[]>(
      RUN,
      runId,
      orgId,
    ),
    db.$queryRawUnsafe<CellRow[]>(CELLS, [runId]),
  ]);
  const row = head[0];
  if (!row) throw notFound(`publish run ${runId}`);
  return {
    ...toHead(row),
    products: row.products,
    destinations: row.destinations,
    cells: cells.map(toCell),
  };
}

export interface RetriedCells {
  records: PublishJobRecord[];
  /** Dead sync logs the retry replaced (now `failed`): their dead-letter jobs should go. */
  replacedDead: string[];
}

/**
 * Records a new attempt, in the same run, for each cell whose latest sync log is `failed` or
 * `dead` and whose outcome a retry can change (RETRY_CAN_CHANGE: an outage, or a product or store
 * fixed since), while its product is still in the catalog and its destination still connected. The
 * run is locked meanwhile, so two retries at once cannot queue a cell twice. `check` sees the
 * destinations to be retried before anything is written, and may throw to refuse (a channel
 * that asked to wait). A replaced dead sync log ends `failed`, so replaying the dead-letter queue
 * cannot publish the same cell again.
 */
export async function retryFailedCells(
  db: Db,
  orgId: string,
  runId: string,
  leaseMs: number,
  check: (destinationIds: string[]) => Promise<void>,
): Promise<RetriedCells> {
  if (!isUuid(runId)) throw notFound(`publish run ${runId}`);
  return retryOnConflict(() =>
    db.$transaction(async (tx) => {
      const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id FROM publish_runs WHERE id = $1::uuid AND org_id = $2::uuid FOR UPDATE`,
        runId,
        orgId,
      );
      if (locked.length === 0) throw notFound(`publish run ${runId}`);
      const failed = await tx.$queryRawUnsafe<CellRow[]>(
        `SELECT c.* FROM (${LATEST_CELLS}) c
       JOIN products p ON p.id = c.product_id AND p.org_id = $2::uuid
       JOIN destination_accounts d ON d.id = c.destination_account_id AND d.org_id = $2::uuid AND d.disconnected_at IS NULL
       WHERE c.status IN ('failed', 'dead') AND ${RETRY_CAN_CHANGE}`,
        [runId],
        orgId,
      );
      if (failed.length === 0) return { records: [], replacedDead: [] };
      await check([...new Set(failed.map((c) => c.destination_account_id))]);
      const records = newRecords(
        orgId,
        runId,
        failed.map((c) => ({
          productId: c.product_id,
          destinationAccountId: c.destination_account_id,
        })),
      );
      const replacedDead = failed.filter((c) => c.status === "dead").map((c) => c.id);
      await tx.$executeRawUnsafe(
        `UPDATE sync_logs SET status = 'failed', lease_until = NULL WHERE id IN (${lockInIdOrder("sync_logs", "id = ANY($1::uuid[]) AND status = 'dead'")})`,
        replacedDead,
      );
      for (const statement of recordStatements(tx, orgId, runId, records, leaseMs)) await statement;
      return { records, replacedDead };
    }),
  );
}
