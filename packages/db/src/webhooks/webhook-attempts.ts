import type { Db } from "../client.js";
import type { WebhookDelivery, WebhookEndpoint } from "../generated/client.js";
import { WEBHOOK_TEST_EVENT } from "./webhook-events.js";

// The sender's side of a delivery: which are due, claiming one attempt (so two workers never
// send the same attempt), and recording its outcome: the next attempt on the retry schedule, or
// failed after the last; an endpoint failing without a success for long enough is disabled.

export interface WebhookRetryPolicy {
  /**
   * Waits before the 2nd, 3rd, ... attempt (the 1st is immediate); after the last one fails the
   * delivery has failed. Standard Webhooks: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
   */
  retryDelaysMs: number[];
  /** An endpoint whose deliveries have all failed for this long is disabled. */
  disableAfterMs: number;
  /** How long a claimed attempt may run before the sweep may try it again (a dead process). */
  leaseMs: number;
}

export const STANDARD_RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];

/** A job may fire this much before the row says the attempt is due (clocks of Redis and us). */
const EARLY_TOLERANCE_MS = 1_000;

/** Pending deliveries whose attempt is due: `{ id, attempts }` names the attempt. Oldest first. */
export async function dueWebhookDeliveries(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ id: string; attempts: number }[]> {
  return db.webhookDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lte: now } },
    orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true, attempts: true },
  });
}

export type ClaimedDelivery = WebhookDelivery & { endpoint: WebhookEndpoint };

/**
 * Claims attempt `attempts + 1` of a pending, due delivery: null when another worker has it, it
 * is no longer pending, or it is not yet due. Until its outcome is recorded the delivery is due
 * again only after the lease.
 */
export async function claimWebhookDelivery(
  db: Db,
  id: string,
  attempts: number,
  now: Date,
  leaseMs: number,
): Promise<ClaimedDelivery | null> {
  const { count } = await db.webhookDelivery.updateMany({
    where: {
      id,
      attempts,
      status: "pending",
      nextAttemptAt: { lte: new Date(now.getTime() + EARLY_TOLERANCE_MS) },
    },
    data: {
      attempts: { increment: 1 },
      lastAttemptAt: now,
      nextAttemptAt: new Date(now.getTime() + leaseMs),
    },
  });
  if (count === 0) return null;
  return db.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
}

/** Whether a claimed delivery may be sent: only test events go to a disabled endpoint. */
export const maySend = (claimed: ClaimedDelivery): boolean =>
  claimed.endpoint.enabled || claimed.eventType === WEBHOOK_TEST_EVENT;

export type AttemptOutcome =
  | { ok: true; responseStatus: number }
  | { ok: false; responseStatus: number | null; error: string; final?: boolean };

/** What happens next: a retry after `retryInMs`, or nothing (succeeded or failed). */
export interface AttemptResult {
  retryInMs: number | null;
  endpointDisabled: boolean;
}

function days(ms: number): string {
  const d = ms / 86_400_000;
  return d >= 1 ? `${Math.round(d * 10) / 10} days` : `${Math.round(ms / 60_000)} minutes`;
}

export async function recordWebhookAttempt(
  db: Db,
  claimed: ClaimedDelivery,
  outcome: AttemptOutcome,
  now: Date,
  policy: WebhookRetryPolicy,
): Promise<AttemptResult> {
  if (outcome.ok) {
    await db.$transaction([
      db.webhookDelivery.update({
        where: { id: claimed.id },
        data: {
          status: "succeeded",
          responseStatus: outcome.responseStatus,
          error: null,
          deliveredAt: now,
          nextAttemptAt: null,
        },
      }),
      db.webhookEndpoint.updateMany({
        where: { id: claimed.endpointId },
        data: { failingSince: null },
      }),
    ]);
    return { retryInMs: null, endpointDisabled: false };
  }

  const wait = outcome.final ? undefined : policy.retryDelaysMs[claimed.attempts - 1];
  await db.webhookDelivery.update({
    where: { id: claimed.id },
    data: {
      status: wait === undefined ? "failed" : "pending",
      responseStatus: outcome.responseStatus,
      error: outcome.error.slice(0, 1000),
      nextAttemptAt: wait === undefined ? null : new Date(now.getTime() + wait),
    },
  });

  // The endpoint's run of failures: it begins with the first failure after a success.
  const endpoint = claimed.endpoint;
  const failingSince = endpoint.failingSince ?? now;
  const disable =
    endpoint.enabled && now.getTime() - failingSince.getTime() >= policy.disableAfterMs;
  if (!disable) {
    if (!endpoint.failingSince)
      await db.webhookEndpoint.updateMany({
        where: { id: endpoint.id, failingSince: null },
        data: { failingSince: now },
      });
    return { retryInMs: wait ?? null, endpointDisabled: false };
  }
  const reason = `every delivery failed for ${days(now.getTime() - failingSince.getTime())} (last error: ${outcome.error.slice(0, 300)})`;
  await db.$transaction([
    db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { enabled: false, disabledAt: now, disabledReason: reason },
    }),
    db.webhookDelivery.updateMany({
      where: { endpointId: endpoint.id, status: "pending", eventType: { not: WEBHOOK_TEST_EVENT } },
      data: { status: "failed", nextAttemptAt: null, error: "not sent: the endpoint was disabled" },
    }),
  ]);
  // This delivery's own last error stays as it was recorded above.
  await db.webhookDelivery.update({
    where: { id: claimed.id },
    data: { error: outcome.error.slice(0, 1000) },
  });
  return { retryInMs: null, endpointDisabled: true };
}

/** A claimed delivery to a disabled endpoint: failed, not sent. */
export async function failUnsendable(db: Db, claimed: ClaimedDelivery): Promise<void> {
  await db.webhookDelivery.update({
    where: { id: claimed.id },
    data: {
      status: "failed",
      nextAttemptAt: null,
      attempts: { decrement: 1 },
      error: "not sent: the endpoint is disabled",
    },
  });
}
