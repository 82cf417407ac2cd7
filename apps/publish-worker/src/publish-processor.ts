import { Job, UnrecoverableError, type Queue } from "bullmq";
import {
  loadDestinationTarget,
  recordEnded,
  recordFinalFailure,
  recordSuccesses,
  releaseAttempts,
  removeProductIfAllEnded,
  setDestinationHealth,
  startAttempts,
  type StartedAttempt,
  type Success,
} from "@catalog/db";
import {
  PUBLISH_JOB,
  PUBLISH_JOB_OPTIONS,
  type PublishBatches,
  type PublishJob,
  type TakenJob,
} from "@catalog/queue";
import type { LoadedDestination } from "@catalog/channels/credentials";
import { inJobSpan } from "@catalog/tracing";
import { jobData, moveOn } from "./job-record.js";
import { CONTINUE, settleFailure, type JobVerdict } from "./job-failure.js";
import { publishableOf } from "./channel-product.js";
import { emitListingEvent, eventTypeOf, subscribedTypes } from "./listing-events.js";
import { runListingJob, type JobResult } from "./listing-jobs.js";
import type { ProcessorDeps } from "./processor-deps.js";

export { CONTINUE, type JobVerdict } from "./job-failure.js";

/**
 * Successes wait at most this long for their batch's one statement: a slow channel call later in
 * the batch does not keep earlier successes from showing.
 */
const RECORD_WITHIN_MS = 200;

export interface BatchContext {
  destinationId: string;
  /** The destination's queue (BullMQ's Job methods, on the failure paths). */
  queue: Queue<PublishJob>;
  batches: PublishBatches;
  /** The lane's lock token: every job of the batch is locked with it. */
  token: string;
  signal: AbortSignal;
  /** The breaker's half-open probe: the batch is one job, and its outcome settles the breaker. */
  probe: boolean;
  /** Tells the lane's heartbeat which locks to renew while the batch runs. */
  hold(lockKeys: string[]): void;
}

interface Item {
  job: Job<PublishJob>;
  data: PublishJob;
  started: StartedAttempt;
}

interface Done {
  item: Item;
  result: JobResult;
}

/**
 * Runs a batch of one destination's jobs that the lane took (and holds the locks of): their
 * attempts start in one statement, the destination and the products load once, the channel is
 * called job by job, and the successes are recorded together, in one statement, before the jobs
 * leave Redis. Failures are recorded at once, job by job.
 *
 * A crash between a channel call and the statement that records its success (a batch widens that
 * window from one job to at most RECORD_WITHIN_MS of them) loses nothing and doubles nothing: the
 * sync log is still `running`, so the job, back in the queue once its lock expires (the stalled
 * check), runs again and calls the channel with the listing's id as its idempotency key (and the
 * remote id stored the moment a multi-step channel assigned it, `saveRemoteId`), so the channel
 * answers with the listing it made, or the SKU lookup finds it; nothing is created twice.
 */
export async function processBatch(
  deps: ProcessorDeps,
  ctx: BatchContext,
  taken: TakenJob[],
): Promise<JobVerdict> {
  const { db, log } = deps;
  const jobs: { job: Job<PublishJob>; data: PublishJob }[] = [];
  const locks = taken.map((t) => ctx.batches.jobLock(t.id));
  /** The product lock the take script took with each job (none for a payload Redis lost). */
  const productLockOf = new Map<string, string>();
  const traceOf = new Map(taken.map((t) => [t.id, t.traceMetadata]));
  for (const t of taken) {
    const job = new Job<PublishJob>(
      ctx.queue,
      PUBLISH_JOB,
      parsed(t.data),
      PUBLISH_JOB_OPTIONS,
      t.id,
    );
    const data = await jobData(deps, job, ctx.token);
    if (!data) continue;
    jobs.push({ job, data });
    if (t.data !== null) {
      const key = ctx.batches.productLock(data.productId);
      productLockOf.set(t.id, key);
      locks.push(key);
    }
  }
  ctx.hold(locks);
  const withLock = (ids: string[]) =>
    ids.map((id) => ({ id, productLock: productLockOf.get(id) ?? null }));
  /** Product locks of the jobs that BullMQ moved on (failures), released with the batch. */
  const otherLocks = () => {
    const ended = new Set([...removed, ...back]);
    return [...productLockOf].filter(([id]) => !ended.has(id)).map(([, key]) => key);
  };
  /** Jobs whose outcome PostgreSQL holds and that leave Redis at the end of the batch. */
  const removed: string[] = [];
  const back: string[] = [];
  let verdict = CONTINUE;
  const finished: Done[] = [];
  try {
    const started = await startAttempts(
      db,
      jobs.map((j) => j.data.syncLogId),
      deps.channelTimeoutMs + deps.pendingLeaseMs,
    );
    const items: Item[] = [];
    for (const { job, data } of jobs) {
      const attempt = started.get(data.syncLogId);
      // Not started: finished already (a re-delivered job) or cancelled with its destination.
      if (attempt) items.push({ job, data, started: attempt });
      else removed.push(data.syncLogId);
    }
    const [destination, products, subscribed] =
      items.length === 0
        ? [null, [], null]
        : await Promise.all([
            loadDestinationTarget(db, deps.keyring, ctx.destinationId),
            db.product.findMany({ where: { id: { in: items.map((i) => i.data.productId) } } }),
            subscribedTypes(db, items[0]!.started.syncLog.orgId),
          ]);
    const productOf = new Map(products.map((p) => [p.id, p]));
    let unrecorded: Done[] = [];
    let unrecordedSince = 0;
    const record = async () => {
      await recordOutcomes(deps, unrecorded);
      for (const done of unrecorded) removed.push(done.item.data.syncLogId);
      finished.push(...unrecorded);
      unrecorded = [];
    };

    for (const [index, item] of items.entries()) {
      if (verdict.pause) {
        // The destination waits: the attempts not made are not counted, and their jobs go back.
        const rest = items.slice(index).map((i) => i.data.syncLogId);
        await releaseAttempts(
          db,
          rest,
          "waiting for the destination",
          new Date(verdict.until),
          deps.pendingLeaseMs,
        );
        back.push(...rest);
        break;
      }
      if (unrecorded.length > 0 && Date.now() - unrecordedSince > RECORD_WITHIN_MS) await record();
      const { job, data, started: attempt } = item;
      const { syncLog } = attempt;
      const product = productOf.get(data.productId);
      // A deleted product is still loaded (its row stays while its listings end), for its end only.
      const missing = !destination
        ? "the destination is disconnected"
        : !product || product.orgId !== data.orgId || (product.deletedAt && syncLog.kind !== "end")
          ? "the product was deleted from the catalog"
          : null;
      if (missing || !destination || !product) {
        const reason = missing ?? "the product was deleted from the catalog";
        // A disconnected store needs connecting again; a deleted product cannot be published.
        await recordFinalFailure(
          db,
          syncLog,
          reason,
          { status: "failed" },
          { kind: destination ? "product" : "access", field: null, reason },
        );
        await moveOn(deps, job, "failed", () =>
          job.moveToFailed(new UnrecoverableError(reason), ctx.token),
        );
        deps.metrics.job(destination?.channel ?? "unknown", "failed");
        continue;
      }
      // The job's span (when the process traces) goes on from the request that enqueued it.
      const span = {
        queue: ctx.queue.name,
        id: data.syncLogId,
        traceMetadata: traceOf.get(job.id!),
      };
      const result = await inJobSpan(span, async (): Promise<JobResult | null> => {
        try {
          return await deps.breakers.fire(destination.id, ctx.probe, () =>
            runListingJob({
              deps,
              started: attempt,
              destination,
              product: publishableOf(product),
              signal: ctx.signal,
            }),
          );
        } catch (error) {
          const settled = await settleFailure(deps, job, ctx.token, data, syncLog, error);
          if (settled.outcome === "failed" || settled.outcome === "dead")
            await emitListingEvent(
              db,
              log,
              eventTypeOf(syncLog.kind, "failed"),
              {
                syncLog,
                channel: destination.channel,
                listingId: attempt.listing.id,
                remoteId: attempt.listing.remoteId,
                remoteUrl: attempt.listing.remoteUrl,
                error: (error as Error).message ?? String(error),
              },
              subscribed,
            );
          deps.metrics.job(destination.channel, settled.outcome);
          verdict = settled.next;
          return null;
        }
      });
      if (!result) continue;
      // The channel has done its part: nothing from here on may reach the failure path.
      if (unrecorded.length === 0) unrecordedSince = Date.now();
      unrecorded.push({ item, result });
    }
    await record();
    await ctx.batches.end(withLock(removed), withLock(back), otherLocks()).catch((err: unknown) =>
      // PostgreSQL holds the outcomes; the jobs come back once their locks expire and are
      // skipped (the stalled check), or the recovery re-adds what is still pending.
      log.warn(
        { err, destinationId: ctx.destinationId },
        "could not end the batch in Redis; PostgreSQL keeps its outcomes",
      ),
    );
    for (const done of finished) await afterSuccess(deps, destination!, done, subscribed);
    return verdict;
  } catch (error) {
    // Whatever was not recorded goes back to the queue (a re-run is skipped or made idempotent,
    // see above); the error is the lane's.
    const handled = new Set([...removed, ...back]);
    const rest = jobs.map((j) => j.data.syncLogId).filter((id) => !handled.has(id));
    back.push(...rest);
    await ctx.batches.end(withLock(removed), withLock(back), otherLocks()).catch(() => {});
    throw error;
  }
}

function parsed(data: string | null): PublishJob {
  try {
    return (data === null ? undefined : JSON.parse(data)) as PublishJob;
  } catch {
    return undefined as unknown as PublishJob;
  }
}

/** The batch's successes in one statement; ends (rare) one by one. */
async function recordOutcomes(deps: ProcessorDeps, done: Done[]): Promise<void> {
  const successes: Success[] = [];
  for (const { item, result } of done) {
    if (result.kind === "listed")
      successes.push({
        syncLogId: item.data.syncLogId,
        remoteId: result.outcome.remoteId,
        remoteUrl: result.outcome.remoteUrl,
        view: result.view,
        note: result.note,
      });
    else await recordEnded(deps.db, item.started.syncLog, result.reason, result.note);
  }
  await recordSuccesses(deps.db, successes);
}

/** What follows a recorded success: the webhook event, the destination's health, the log line. */
async function afterSuccess(
  deps: ProcessorDeps,
  destination: LoadedDestination,
  { item, result }: Done,
  subscribed: Set<string> | null,
): Promise<void> {
  const { db, log } = deps;
  const { syncLog, listing } = item.started;
  if (result.kind === "ended" && syncLog.kind === "end")
    await removeProductIfAllEnded(db, syncLog.productId).catch((err: unknown) =>
      log.warn({ err, productId: syncLog.productId }, "could not remove the deleted product"),
    );
  const remoteId = result.kind === "listed" ? result.outcome.remoteId : listing.remoteId;
  await emitListingEvent(
    db,
    log,
    eventTypeOf(syncLog.kind, result.kind),
    {
      syncLog,
      channel: destination.channel,
      listingId: listing.id,
      remoteId,
      remoteUrl: result.kind === "listed" ? result.outcome.remoteUrl : listing.remoteUrl,
    },
    subscribed,
  );
  // A retry that now succeeds means the destination recovered (a first-attempt success costs no
  // write).
  if (syncLog.attempts > 1) {
    await setDestinationHealth(db, destination.id, "ok").catch((err: unknown) =>
      log.warn({ err, destinationId: destination.id }, "could not mark the destination ok"),
    );
  }
  log.info(
    {
      syncLogId: syncLog.id,
      kind: syncLog.kind,
      destinationId: destination.id,
      remoteId,
      ...(result.note ? { note: result.note } : {}),
    },
    result.kind === "ended" ? "ended" : syncLog.kind === "update" ? "synced" : "published",
  );
  deps.metrics.job(destination.channel, "succeeded");
}
