import { UnrecoverableError, type Job, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { ChannelWaitError, GiveUpChannelError, isChannelError, type ChannelRegistry, type PublishOutcome } from "@catalog/channels";
import {
  loadDestinationTarget, recordFinalFailure, recordRetry, recordSuccess, recordWait, rememberRemoteId, setDestinationHealth, startAttempt,
  toProductView, type CredentialKeyring, type Db, type StartedAttempt,
} from "@catalog/db";
import { parsePublishJob, publishKeys, setChannelWait, type DeadLetter, type PublishJob } from "@catalog/queue";
import { retryDelay, type RetryPolicy } from "./retry-policy.js";
import { BreakerRegistry } from "./breaker-registry.js";
import { toPublishable } from "./channel-product.js";
import { freshCredentials } from "./credential-refresh.js";
import { RedisLock } from "./redis-lock.js";

export interface ProcessorDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  keyring: CredentialKeyring;
  channels: ChannelRegistry;
  breakers: BreakerRegistry;
  deadLetters: Queue<DeadLetter>;
  policy: RetryPolicy;
  lockMs: number;
  channelTimeoutMs: number;
  pendingLeaseMs: number;
  log: Logger;
}

/** What the lane should do with the destination after this job. */
export type JobVerdict = { pause: false } | { pause: true; until: number };

const CONTINUE: JobVerdict = { pause: false };

/**
 * Runs one publish job that the lane took (and holds BullMQ's lock of): takes the per
 * (product, destination) lock, writes the attempt to PostgreSQL, calls the channel through the
 * destination's breaker and records the outcome before moving the job on, so a crash at any
 * point leaves a state the recovery and a re-delivery finish correctly.
 */
export async function processPublishJob(deps: ProcessorDeps, job: Job<PublishJob>, token: string, signal: AbortSignal): Promise<JobVerdict> {
  let data: PublishJob;
  try {
    data = parsePublishJob(job.data);
  } catch (error) {
    await job.moveToFailed(new UnrecoverableError((error as Error).message), token);
    return CONTINUE;
  }
  const keys = publishKeys(deps.prefix);
  const lock = await RedisLock.acquire(deps.redis, keys.lock(data.productId, data.destinationAccountId), deps.lockMs);
  if (!lock) {
    // Another job publishes this product to this destination right now: come back shortly.
    await job.moveToDelayed(Date.now() + 1_000, token);
    return CONTINUE;
  }
  const keepAlive = setInterval(() => {
    void job.extendLock(token, deps.lockMs).catch(() => {});
    void lock.renew().catch(() => {});
  }, Math.max(200, Math.floor(deps.lockMs / 3)));
  try {
    return await attempt(deps, job, token, data, signal);
  } finally {
    clearInterval(keepAlive);
    await lock.release().catch(() => {});
  }
}

async function attempt(deps: ProcessorDeps, job: Job<PublishJob>, token: string, data: PublishJob, signal: AbortSignal): Promise<JobVerdict> {
  const { db, log } = deps;
  const gate = await deps.breakers.gate(data.destinationAccountId);
  if (!gate.pass) {
    await job.moveToDelayed(gate.until, token);
    return { pause: true, until: gate.until };
  }
  const started = await startAttempt(db, data.syncLogId, deps.channelTimeoutMs + deps.pendingLeaseMs);
  if (!started) {
    // Finished already (a re-delivered job) or cancelled with its destination.
    await job.moveToCompleted({ skipped: true }, token, false);
    return CONTINUE;
  }
  const { syncLog } = started;
  const [destination, product] = await Promise.all([
    loadDestinationTarget(db, deps.keyring, data.destinationAccountId),
    db.product.findFirst({ where: { id: data.productId, orgId: data.orgId } }),
  ]);
  if (!destination || !product) {
    const reason = !destination ? "the destination is disconnected" : "the product was deleted from the catalog";
    await recordFinalFailure(db, syncLog, reason, "failed");
    await job.moveToFailed(new UnrecoverableError(reason), token);
    return CONTINUE;
  }

  try {
    const outcome = await deps.breakers.fire(destination.id, gate.probe, () => callChannel(deps, started, destination, product, signal));
    await recordSuccess(db, syncLog, outcome);
    await job.moveToCompleted(outcome, token, false);
    // A retry that now succeeds means the destination recovered (a first-attempt success costs no write).
    if (syncLog.attempts > 1) await setDestinationHealth(db, destination.id, "ok");
    log.info({ syncLogId: syncLog.id, destinationId: destination.id, remoteId: outcome.remoteId }, "published");
    return CONTINUE;
  } catch (error) {
    return settleFailure(deps, job, token, data, syncLog, error);
  }
}

/**
 * One channel call with credentials that are fresh (refreshed shortly before they expire), and
 * once more with refreshed ones when the channel refuses the token with 401. The listing's remote
 * id is stored the moment the channel assigns it, so a failure in a later step of a multi-step
 * publish is retried as an update of that listing.
 */
async function callChannel(
  deps: ProcessorDeps, { syncLog, listing }: StartedAttempt, destination: NonNullable<Awaited<ReturnType<typeof loadDestinationTarget>>>,
  product: Parameters<typeof toProductView>[0], signal: AbortSignal,
): Promise<PublishOutcome> {
  const adapter = deps.channels.adapter(destination.channel);
  const callSignal = AbortSignal.any([signal, AbortSignal.timeout(deps.channelTimeoutMs)]);
  const gone = () => new GiveUpChannelError("the destination was disconnected", { channel: destination.channel, kind: "validation" });
  const publish = (target: typeof destination) => adapter.publish({
    product: toPublishable(toProductView(product)), destination: target, remoteId: listing.remoteId, idempotencyKey: listing.id, signal: callSignal,
    saveRemoteId: async (remoteId, remoteUrl) => {
      listing.remoteId = remoteId;
      await rememberRemoteId(deps.db, syncLog, remoteId, remoteUrl);
    },
  });
  const target = await freshCredentials(deps, adapter, destination, callSignal);
  if (!target) throw gone();
  try {
    return await publish(target);
  } catch (error) {
    const refused = error instanceof GiveUpChannelError && error.kind === "auth" && error.status === 401;
    if (!refused || !adapter.refreshCredentials) throw error;
    const refreshed = await freshCredentials(deps, adapter, target, callSignal, true);
    if (!refreshed) throw gone();
    return publish(refreshed);
  }
}

async function settleFailure(
  deps: ProcessorDeps, job: Job<PublishJob>, token: string, data: PublishJob, syncLog: StartedAttempt["syncLog"], error: unknown,
): Promise<JobVerdict> {
  const { db, log } = deps;
  const message = (error as Error).message ?? String(error);
  if (error instanceof ChannelWaitError) {
    const until = Date.now() + error.retryAfterMs;
    await setChannelWait(deps.redis, deps.prefix, data.destinationAccountId, { until, channel: error.channel, reason: message });
    await recordWait(db, syncLog.id, message, new Date(until), deps.pendingLeaseMs);
    await job.moveToDelayed(until, token);
    log.warn({ syncLogId: syncLog.id, destinationId: data.destinationAccountId, until }, "channel asked to wait");
    return { pause: true, until };
  }
  if (BreakerRegistry.isOpenRejection(error)) {
    const until = Date.now() + 1_000;
    await recordWait(db, syncLog.id, "the destination's breaker is open", new Date(until), deps.pendingLeaseMs);
    await job.moveToDelayed(until, token);
    return { pause: true, until };
  }
  if (error instanceof GiveUpChannelError) {
    await recordFinalFailure(db, syncLog, message, "failed");
    if (error.kind === "auth") await setDestinationHealth(db, data.destinationAccountId, "down");
    await job.moveToFailed(new UnrecoverableError(message), token);
    log.warn({ syncLogId: syncLog.id, destinationId: data.destinationAccountId, error: message }, "publish given up");
    return CONTINUE;
  }
  if (!isChannelError(error)) log.error({ err: error, syncLogId: syncLog.id }, "publish failed unexpectedly");
  if (syncLog.attempts >= deps.policy.attempts) {
    await recordFinalFailure(db, syncLog, message, "dead");
    await deps.deadLetters.add("dead", { ...data, error: message }, { jobId: data.syncLogId }).catch(() => {});
    await job.moveToFailed(new UnrecoverableError(message), token);
    log.warn({ syncLogId: syncLog.id, destinationId: data.destinationAccountId, error: message }, "publish dead after its last attempt");
    return CONTINUE;
  }
  const retryAt = Date.now() + retryDelay(deps.policy, syncLog.attempts);
  await recordRetry(db, syncLog.id, message, new Date(retryAt), deps.pendingLeaseMs);
  await job.moveToDelayed(retryAt, token);
  return CONTINUE;
}
