import { randomUUID } from "node:crypto";
import { DelayedError, type Job, type Queue } from "bullmq";
import {
  applySourceRecheck,
  recordWebhookEvent,
  sourceCheckTarget,
  type Db,
} from "@catalog/db/source-watch";
import {
  nextSourceCheck,
  parseSourceCheckJob,
  watchSchedulerId,
  type PublishQueues,
  type SourceCheckJob,
} from "@catalog/queue";
import type { PageReaderDeps } from "../page-reader.js";
import type { HostGate } from "./host-pace.js";
import { checkSourcePage } from "./page-check.js";

export interface SourceCheckDeps {
  db: Db;
  queue: Queue<SourceCheckJob>;
  publish: PublishQueues;
  gate: HostGate;
  reader: PageReaderDeps;
}

export type SourceCheckResult =
  { checked: true; result: string; changed: string[] } | { checked: false; reason: string };

/**
 * One re-check of a product's page: claims the page's host (or waits for it as a delayed job),
 * reads the page, and records what it found (`applySourceRecheck`); a change is then enqueued for
 * the stores and announced as `product.source_changed`. A scheduled check of a product that is
 * gone or no longer watched removes its scheduler.
 */
export function createSourceCheckProcessor(deps: SourceCheckDeps) {
  return async (job: Job<SourceCheckJob>, token?: string): Promise<SourceCheckResult> => {
    const { productId, manual } = parseSourceCheckJob(job.data);
    const target = await sourceCheckTarget(deps.db, productId);
    if (!target || (!manual && !target.watched)) {
      if (!manual) await deps.queue.removeJobScheduler(watchSchedulerId(productId));
      return { checked: false, reason: "the product is gone or no longer watched" };
    }
    const host = new URL(target.sourceUrl).host;
    const claim = randomUUID();
    const wait = await deps.gate.claim(host, claim);
    if (wait > 0) {
      // Another check of this host is running or just ended: this one waits its turn in Redis.
      await job.moveToDelayed(Date.now() + wait, token);
      throw new DelayedError();
    }
    let outcome;
    try {
      outcome = await checkSourcePage(target.sourceUrl, deps.reader);
    } finally {
      await deps.gate.release(host, claim);
    }
    const nextCheckAt = target.watched ? await nextSourceCheck(deps.queue, productId) : null;
    const applied = await applySourceRecheck(deps.db, { productId, outcome, nextCheckAt });
    if (!applied) return { checked: false, reason: "the product is gone" };
    const changed = Object.keys(applied.changes);
    if (changed.length > 0) {
      // PostgreSQL holds the planned syncs; the publish worker's recovery enqueues any lost here.
      await deps.publish.enqueue(
        applied.syncs.map(({ syncLogId, orgId, productId: id, destinationAccountId }) => ({
          syncLogId,
          orgId,
          productId: id,
          destinationAccountId,
        })),
      );
      await recordWebhookEvent(deps.db, {
        orgId: applied.orgId,
        type: "product.source_changed",
        data: { productId, sourceUrl: target.sourceUrl, changes: applied.changes },
      });
    }
    return { checked: true, result: applied.result, changed };
  };
}
