import { UnrecoverableError, type Job, type Queue } from "bullmq";
import type { Logger } from "pino";
import { isUuid, markDeadLettersMirrored, pendingPublish, type Db } from "@catalog/db";
import {
  parsePublishJob,
  publishQueueName,
  type DeadLetter,
  type PublishJob,
} from "@catalog/queue";

/** The part of the processor's dependencies (ProcessorDeps) that recording a job uses. */
interface RecordDeps {
  db: Db;
  log: Logger;
  deadLetters: Queue<DeadLetter>;
}

// How a job's record in Redis follows its record in PostgreSQL. PostgreSQL is written first; what
// Redis lost or refuses afterwards is rebuilt from it, never the other way round.

/**
 * The job's payload; when Redis lost it (a flush deleted the job's hash after a worker had taken
 * its id), the publish PostgreSQL records under the job id (= sync log id). Null when there is
 * nothing to do: the job has been moved to failed, for the record only, since PostgreSQL has no
 * pending publish under that id.
 */
export async function jobData(
  deps: Pick<RecordDeps, "db" | "log">,
  job: Job<PublishJob>,
  token: string,
): Promise<PublishJob | null> {
  try {
    return parsePublishJob(job.data);
  } catch (error) {
    const id = job.id ?? "";
    const pending = isUuid(id) ? await pendingPublish(deps.db, id) : null;
    if (pending && publishQueueName(pending.destinationAccountId) === job.queueName) {
      deps.log.warn(
        { syncLogId: id },
        "job payload lost in Redis; carried on from PostgreSQL's record",
      );
      return pending;
    }
    const reason = `${(error as Error).message}, and no pending publish has its id`;
    deps.log.warn({ jobId: id, queue: job.queueName }, reason);
    await moveOn(deps, job, "failed", () =>
      job.moveToFailed(new UnrecoverableError(reason), token),
    );
    return null;
  }
}

/**
 * Moves the job on in Redis once PostgreSQL holds the outcome. When Redis refuses (the job's keys
 * were flushed, Redis restarted, the lock was lost to a stalled check), the outcome recorded
 * stands: a finished publish needs nothing more, and a pending one is enqueued again by the
 * recovery when its lease runs out. So the error is reported, never turned into the publish's.
 */
export async function moveOn(
  deps: Pick<RecordDeps, "log">,
  job: Job<PublishJob>,
  to: string,
  move: () => Promise<unknown>,
): Promise<void> {
  try {
    await move();
  } catch (err) {
    deps.log.warn(
      { err, jobId: job.id, to },
      "could not move the job on in Redis; PostgreSQL keeps its outcome",
    );
  }
}

/**
 * Adds the dead publish's job to the dead-letter queue, after PostgreSQL recorded it `dead` with
 * a mirror lease. Confirmed, the lease is cleared; if adding fails, it is logged as an error and
 * the recovery adds the job once the lease has run out.
 */
export async function mirrorDeadLetter(
  deps: Pick<RecordDeps, "db" | "log" | "deadLetters">,
  letter: DeadLetter,
): Promise<void> {
  try {
    await deps.deadLetters.add("dead", letter, { jobId: letter.syncLogId });
    await markDeadLettersMirrored(deps.db, [letter.syncLogId]);
  } catch (err) {
    deps.log.error(
      { err, syncLogId: letter.syncLogId },
      "dead-letter job not added; the recovery adds it when its lease runs out",
    );
  }
}
