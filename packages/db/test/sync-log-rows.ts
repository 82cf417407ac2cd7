import { randomUUID } from "node:crypto";
import type { Db, SyncStatus } from "@catalog/db";

/** One sync log as a publish records it (its job id is its own id); returns the id. */
export async function insertSyncLog(
  db: Db,
  row: {
    orgId: string;
    productId: string;
    destinationAccountId: string;
    status: SyncStatus;
    createdAt?: Date;
    runId?: string | null;
  },
): Promise<string> {
  const id = randomUUID();
  await db.syncLog.create({ data: { id, jobId: id, ...row } });
  return id;
}

/**
 * `count` sync logs of one product on one store in one statement, with `status` and the lease
 * `leaseUntil` (an SQL expression: one value for every row, as the recovery gives a page one
 * lease); returns their ids.
 */
export async function insertSyncLogs(
  db: Db,
  where: { orgId: string; productId: string; destinationAccountId: string },
  count: number,
  status: SyncStatus,
  leaseUntil: string,
): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO sync_logs (id, job_id, org_id, product_id, destination_account_id, status, lease_until)
     SELECT u, u::text, $1::uuid, $2::uuid, $3::uuid, $4::"SyncStatus", ${leaseUntil}
     FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, $5::int)) g RETURNING id`,
    where.orgId,
    where.productId,
    where.destinationAccountId,
    status,
    count,
  );
  return rows.map((r) => r.id);
}
