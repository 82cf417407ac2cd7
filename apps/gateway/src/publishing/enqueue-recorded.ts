import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { PublishJobRecord } from "@catalog/db";

/** How long a queued publish may sit untouched before the workers' recovery enqueues it again. */
export const PENDING_LEASE_MS = 60_000;

/**
 * Puts recorded publishes on their destinations' queues, then tells the catalog's read cache
 * that listings changed (the product list shows each listing's status). Shared by a publish and
 * a run's retry, so both behave alike when Redis fails.
 */
export async function enqueueRecorded(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  orgId: string,
  records: PublishJobRecord[],
): Promise<void> {
  try {
    await app.queues.publish.enqueue(
      records.map((r) => ({
        syncLogId: r.syncLogId,
        orgId,
        productId: r.productId,
        destinationAccountId: r.destinationAccountId,
      })),
    );
  } catch (error) {
    // Recorded in PostgreSQL already: the workers' recovery enqueues these once their lease
    // runs out, so the publish is accepted all the same.
    log.warn(
      { err: error, jobs: records.length },
      "enqueueing failed; recovery will enqueue these jobs",
    );
  }
  await app.caches.catalogChanged(orgId);
}
