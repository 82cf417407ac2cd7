import { UnrecoverableError, type Job } from "bullmq";
import { ChannelWaitError, GiveUpChannelError, isChannelError } from "@catalog/channels";
import {
  recordFinalFailure,
  recordRetry,
  recordWait,
  setDestinationHealth,
  type StartedAttempt,
} from "@catalog/db";
import { setChannelWait, type PublishJob } from "@catalog/queue";
import { retryDelay } from "./retry-policy.js";
import { giveUpFailure, TEMPORARY } from "./failure-kind.js";
import { mirrorDeadLetter, moveOn } from "./job-record.js";
import { BreakerRegistry } from "./breaker-registry.js";
import type { PublishJobOutcome } from "./metrics.js";
import type { ProcessorDeps } from "./processor-deps.js";

/** What the lane should do with the destination after this job. */
export type JobVerdict = { pause: false } | { pause: true; until: number };

export const CONTINUE: JobVerdict = { pause: false };

// A failed attempt is recorded at once, job by job (failures are rare; successes are recorded a
// batch at a time, publish-processor.ts).

/**
 * Records a failed attempt's outcome in PostgreSQL, then moves the job on. The records refuse a
 * publish that is no longer pending (finished by another delivery, cancelled with its
 * destination): then the job is done with. Returns what the lane does next and, for metrics,
 * what became of the attempt.
 */
export async function settleFailure(
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
    if (
      await recordFinalFailure(db, syncLog, message, { status: "failed" }, giveUpFailure(error))
    ) {
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
      await recordFinalFailure(
        db,
        syncLog,
        message,
        { status: "dead", mirrorWithinMs: deps.pendingLeaseMs },
        TEMPORARY,
      )
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
