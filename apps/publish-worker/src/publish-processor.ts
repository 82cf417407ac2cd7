import { UnrecoverableError, type Job } from "bullmq";
import { ChannelWaitError, GiveUpChannelError, isChannelError } from "@catalog/channels";
import {
  loadDestinationTarget,
  recordEnded,
  recordFinalFailure,
  recordRetry,
  recordSuccess,
  recordWait,
  removeProductIfAllEnded,
  setDestinationHealth,
  startAttempt,
  type StartedAttempt,
} from "@catalog/db";
import { publishKeys, setChannelWait, type PublishJob } from "@catalog/queue";
import { retryDelay } from "./retry-policy.js";
import { jobData, mirrorDeadLetter, moveOn } from "./job-record.js";
import { startHeartbeat } from "./heartbeat.js";
import { BreakerRegistry } from "./breaker-registry.js";
import { publishableOf } from "./channel-product.js";
import { emitListingEvent, eventTypeOf } from "./listing-events.js";
import { runListingJob, type JobResult } from "./listing-jobs.js";
import type { PublishJobOutcome } from "./metrics.js";
import { RedisLock } from "./redis-lock.js";
import type { ProcessorDeps } from "./processor-deps.js";

/** What the lane should do with the destination after this job. */
export type JobVerdict = { pause: false } | { pause: true; until: number };

const CONTINUE: JobVerdict = { pause: false };

/**
 * Runs one publish job that the lane took (and holds BullMQ's lock of): takes the per
 * (product, destination) lock, writes the attempt to PostgreSQL, calls the channel through the
 * destination's breaker (a publish, an update or an end, by the sync log's kind: listing-jobs.ts)
 * and records the outcome before moving the job on, so a crash at any point leaves a state the
 * recovery and a re-delivery finish correctly.
 */
export async function processPublishJob(
  deps: ProcessorDeps,
  job: Job<PublishJob>,
  token: string,
  signal: AbortSignal,
): Promise<JobVerdict> {
  const data = await jobData(deps, job, token);
  if (!data) return CONTINUE;
  const keys = publishKeys(deps.prefix);
  const lock = await RedisLock.acquire(
    deps.redis,
    keys.lock(data.productId, data.destinationAccountId),
    deps.lockMs,
  );
  if (!lock) {
    // Another job publishes this product to this destination right now: come back shortly.
    await moveOn(deps, job, "delayed", () => job.moveToDelayed(Date.now() + 1_000, token));
    return CONTINUE;
  }
  const heartbeat = startHeartbeat(
    deps.heartbeatMs,
    () => Promise.all([job.extendLock(token, deps.lockMs), lock.renew()]),
    (err) => deps.log.warn({ err, syncLogId: data.syncLogId }, "could not renew the job's locks"),
  );
  try {
    return await attempt(deps, job, token, data, signal);
  } finally {
    heartbeat.stop();
    await lock.release().catch(() => {});
  }
}

async function attempt(
  deps: ProcessorDeps,
  job: Job<PublishJob>,
  token: string,
  data: PublishJob,
  signal: AbortSignal,
): Promise<JobVerdict> {
  const { db, log } = deps;
  const gate = await deps.breakers.gate(data.destinationAccountId);
  if (!gate.pass) {
    await moveOn(deps, job, "delayed", () => job.moveToDelayed(gate.until, token));
    return { pause: true, until: gate.until };
  }
  const started = await startAttempt(
    db,
    data.syncLogId,
    deps.channelTimeoutMs + deps.pendingLeaseMs,
  );
  if (!started) {
    // Finished already (a re-delivered job) or cancelled with its destination.
    await moveOn(deps, job, "completed", () =>
      job.moveToCompleted({ skipped: true }, token, false),
    );
    return CONTINUE;
  }
  const { syncLog } = started;
  const [destination, product] = await Promise.all([
    loadDestinationTarget(db, deps.keyring, data.destinationAccountId),
    db.product.findFirst({ where: { id: data.productId, orgId: data.orgId } }),
  ]);
  // A deleted product is still loaded (its row stays while its listings end), for its end only.
  const missing = !destination
    ? "the destination is disconnected"
    : !product || (product.deletedAt && syncLog.kind !== "end")
      ? "the product was deleted from the catalog"
      : null;
  if (missing || !destination || !product) {
    const reason = missing ?? "the product was deleted from the catalog";
    await recordFinalFailure(db, syncLog, reason, { status: "failed" });
    await moveOn(deps, job, "failed", () =>
      job.moveToFailed(new UnrecoverableError(reason), token),
    );
    deps.metrics.job(destination?.channel ?? "unknown", "failed");
    return CONTINUE;
  }

  let result: JobResult;
  try {
    result = await deps.breakers.fire(destination.id, gate.probe, () =>
      runListingJob({ deps, started, destination, product: publishableOf(product), signal }),
    );
  } catch (error) {
    const verdict = await settleFailure(deps, job, token, data, syncLog, error);
    if (verdict.outcome === "failed" || verdict.outcome === "dead")
      await emitListingEvent(db, log, eventTypeOf(syncLog.kind, "failed"), {
        syncLog,
        channel: destination.channel,
        listingId: started.listing.id,
        remoteId: started.listing.remoteId,
        remoteUrl: started.listing.remoteUrl,
        error: (error as Error).message ?? String(error),
      });
    deps.metrics.job(destination.channel, verdict.outcome);
    return verdict.next;
  }
  // The channel has done its part: nothing from here on may reach the failure path. A Redis
  // error now (a flush, a restart: "Missing key for job") only costs the job's record in Redis;
  // PostgreSQL's, written first, is the one that counts.
  if (result.kind === "listed") {
    await recordSuccess(db, syncLog, result.outcome, { view: result.view, note: result.note });
  } else {
    await recordEnded(db, syncLog, result.reason, result.note);
  }
  await moveOn(deps, job, "completed", () =>
    job.moveToCompleted(result.kind === "listed" ? result.outcome : { ended: true }, token, false),
  );
  if (result.kind === "ended" && syncLog.kind === "end")
    await removeProductIfAllEnded(db, product.id).catch((err: unknown) =>
      log.warn({ err, productId: product.id }, "could not remove the deleted product"),
    );
  await emitListingEvent(db, log, eventTypeOf(syncLog.kind, result.kind), {
    syncLog,
    channel: destination.channel,
    listingId: started.listing.id,
    remoteId: result.kind === "listed" ? result.outcome.remoteId : started.listing.remoteId,
    remoteUrl: result.kind === "listed" ? result.outcome.remoteUrl : started.listing.remoteUrl,
  });
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
      remoteId: result.kind === "listed" ? result.outcome.remoteId : started.listing.remoteId,
      ...(result.note ? { note: result.note } : {}),
    },
    result.kind === "ended" ? "ended" : syncLog.kind === "update" ? "synced" : "published",
  );
  deps.metrics.job(destination.channel, "succeeded");
  return CONTINUE;
}

/**
 * Records a failed attempt's outcome in PostgreSQL, then moves the job on. The records refuse a
 * publish that is no longer pending (finished by another delivery, cancelled with its
 * destination): then the job is done with. Returns what the lane does next and, for metrics,
 * what became of the attempt.
 */
async function settleFailure(
  deps: ProcessorDeps,
  job: Job<PublishJob>,
  token: string,
  data: PublishJob,
  syncLog: StartedAttempt["syncLog"],
  error: unknown,
): Promise<{ next: JobVerdict; outcome: PublishJobOutcome }> {
  const { db, log } = deps;
  const message = (error as Error).message ?? String(error);
  const finishedElsewhere = () =>
    moveOn(deps, job, "completed", () => job.moveToCompleted({ skipped: true }, token, false));
  if (error instanceof ChannelWaitError || BreakerRegistry.isOpenRejection(error)) {
    const wait = error instanceof ChannelWaitError;
    const until = Date.now() + (wait ? error.retryAfterMs : 1_000);
    if (wait)
      await setChannelWait(deps.redis, deps.prefix, data.destinationAccountId, {
        until,
        channel: error.channel,
        reason: message,
      });
    const reason = wait ? message : "the destination's breaker is open";
    if (await recordWait(db, syncLog.id, reason, new Date(until), deps.pendingLeaseMs)) {
      await moveOn(deps, job, "delayed", () => job.moveToDelayed(until, token));
    } else {
      await finishedElsewhere();
    }
    if (wait)
      log.warn(
        { syncLogId: syncLog.id, destinationId: data.destinationAccountId, until },
        "channel asked to wait",
      );
    return { next: { pause: true, until }, outcome: "waited" };
  }
  if (error instanceof GiveUpChannelError) {
    // A refused token is a fact about the destination, whatever became of this publish.
    if (error.kind === "auth") await setDestinationHealth(db, data.destinationAccountId, "down");
    if (await recordFinalFailure(db, syncLog, message, { status: "failed" })) {
      log.warn(
        { syncLogId: syncLog.id, destinationId: data.destinationAccountId, error: message },
        "publish given up",
      );
    }
    await moveOn(deps, job, "failed", () =>
      job.moveToFailed(new UnrecoverableError(message), token),
    );
    return { next: CONTINUE, outcome: "failed" };
  }
  if (!isChannelError(error))
    log.error({ err: error, syncLogId: syncLog.id }, "publish failed unexpectedly");
  if (syncLog.attempts >= deps.policy.attempts) {
    if (
      await recordFinalFailure(db, syncLog, message, {
        status: "dead",
        mirrorWithinMs: deps.pendingLeaseMs,
      })
    ) {
      await mirrorDeadLetter(deps, { ...data, error: message });
      log.warn(
        { syncLogId: syncLog.id, destinationId: data.destinationAccountId, error: message },
        "publish dead after its last attempt",
      );
    }
    await moveOn(deps, job, "failed", () =>
      job.moveToFailed(new UnrecoverableError(message), token),
    );
    return { next: CONTINUE, outcome: "dead" };
  }
  const retryAt = Date.now() + retryDelay(deps.policy, syncLog.attempts);
  if (await recordRetry(db, syncLog.id, message, new Date(retryAt), deps.pendingLeaseMs)) {
    await moveOn(deps, job, "delayed", () => job.moveToDelayed(retryAt, token));
  } else {
    await finishedElsewhere();
  }
  return { next: CONTINUE, outcome: "retried" };
}
