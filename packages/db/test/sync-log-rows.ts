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
