import type { Job } from "bullmq";
import {
  claimWebhookDelivery,
  dueWebhookDeliveries,
  failUnsendable,
  maySend,
  openWebhookSecret,
  recordWebhookAttempt,
  type CredentialKeyring,
  type Db,
  type WebhookRetryPolicy,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { WEBHOOK_SWEEP_JOB, parseWebhookJob, type WebhookQueue } from "@catalog/queue";
import { sendWebhook } from "./send-webhook.js";

export interface WebhookSenderDeps {
  db: Db;
  keyring: CredentialKeyring;
  queue: WebhookQueue;
  policy: UrlPolicy;
  retry: WebhookRetryPolicy;
  timeoutMs: number;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** Pending deliveries enqueued per sweep, at most. */
const SWEEP_BATCH = 500;

export type WebhookAttemptReport =
  { sent: false } | { sent: true; deliveryId: string; ok: boolean; retryInMs: number | null };

/** Tries the attempt a job names; a job for an attempt already made (or not yet due) does nothing. */
export async function deliverAttempt(
  deps: WebhookSenderDeps,
  deliveryId: string,
  attempts: number,
): Promise<WebhookAttemptReport> {
  const now = deps.now?.() ?? new Date();
  const claimed = await claimWebhookDelivery(
    deps.db,
    deliveryId,
    attempts,
    now,
    deps.retry.leaseMs,
  );
  if (!claimed) return { sent: false };
  if (!maySend(claimed)) {
    await failUnsendable(deps.db, claimed);
    return { sent: false };
  }
  const secret = openWebhookSecret(deps.keyring, claimed.endpoint);
  const outcome = await sendWebhook(claimed, secret, {
    policy: deps.policy,
    timeoutMs: deps.timeoutMs,
    now,
  });
  const result = await recordWebhookAttempt(
    deps.db,
    claimed,
    outcome,
    deps.now?.() ?? new Date(),
    deps.retry,
  );
  if (result.retryInMs !== null)
    await deps.queue
      .enqueue([{ deliveryId, attempts: claimed.attempts }], result.retryInMs)
      .catch(() => {
        /* the sweep enqueues it when it is due */
      });
  return { sent: true, deliveryId, ok: outcome.ok, retryInMs: result.retryInMs };
}

/** Enqueues every pending delivery that is due (one job per attempt, so never twice). */
export async function sweepWebhookDeliveries(deps: WebhookSenderDeps): Promise<number> {
  const due = await dueWebhookDeliveries(deps.db, deps.now?.() ?? new Date(), SWEEP_BATCH);
  await deps.queue.enqueue(due.map((d) => ({ deliveryId: d.id, attempts: d.attempts })));
  return due.length;
}

export function createWebhookProcessor(deps: WebhookSenderDeps) {
  return async (job: Job): Promise<WebhookAttemptReport | { swept: number }> => {
    if (job.name === WEBHOOK_SWEEP_JOB) return { swept: await sweepWebhookDeliveries(deps) };
    const data = parseWebhookJob(job.data);
    return deliverAttempt(deps, data.deliveryId, data.attempts);
  };
}
