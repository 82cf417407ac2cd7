import type { PublishJobRecord } from "../publishing/publish-requests.js";
import { planListingSyncs } from "./listing-sync.js";

// The writers' side of automatic sync: a product change names its changed fields and who made
// it, and the syncs it calls for are planned in the writer's transaction and collected, to be
// enqueued once it has committed.

/** Catalog fields no channel receives: a change of only these plans no sync. */
const CHANNEL_BLIND_FIELDS = new Set(["sourceUrl"]);

/** Who changes products ("member@demo.local", "import Spring prices") and the syncs planned. */
export interface SyncCollector {
  by: string;
  /** Filled by the writer; the caller enqueues them after its transaction commits. */
  records: PublishJobRecord[];
}

/** "price, quantity changed by import Spring"; null when no field a channel receives changed. */
export function syncTrigger(changedFields: string[], by: string): string | null {
  const received = changedFields.filter((f) => !CHANNEL_BLIND_FIELDS.has(f));
  return received.length === 0 ? null : `${received.join(", ")} changed by ${by}`;
}

type Client = Parameters<typeof planListingSyncs>[0];

/**
 * Plans the syncs of changed products, one statement per distinct set of changed fields (an
 * import changing every price is one), and adds them to the collector.
 */
export async function planChangeSyncs(
  db: Client,
  orgId: string,
  changes: { productId: string; fields: string[] }[],
  collector: SyncCollector,
): Promise<void> {
  const byTrigger = new Map<string, string[]>();
  for (const change of changes) {
    const trigger = syncTrigger([...change.fields].sort(), collector.by);
    if (trigger === null) continue;
    const ids = byTrigger.get(trigger) ?? [];
    ids.push(change.productId);
    byTrigger.set(trigger, ids);
  }
  for (const [trigger, productIds] of byTrigger) {
    collector.records.push(...(await planListingSyncs(db, { orgId, productIds, trigger })));
  }
}
