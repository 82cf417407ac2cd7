import type { Logger } from "pino";
import {
  recordWebhookEvent,
  type Db,
  type StartedAttempt,
  type WebhookEventType,
} from "@catalog/db";

type SyncLog = StartedAttempt["syncLog"];

// Webhooks out: what became of a listing job, as the org's endpoints receive it.

export interface ListingEvent {
  syncLog: SyncLog;
  channel: string;
  listingId: string | null;
  remoteId: string | null;
  remoteUrl: string | null;
  error?: string;
}

/** The event a job's end is, by its kind and outcome. */
export function eventTypeOf(
  kind: SyncLog["kind"],
  outcome: "listed" | "ended" | "failed",
): WebhookEventType {
  if (outcome === "ended") return "listing.ended";
  if (kind === "publish")
    return outcome === "failed" ? "listing.publish_failed" : "listing.published";
  return outcome === "failed" ? "listing.sync_failed" : "listing.synced";
}

/**
 * The event types an org's enabled endpoints subscribe to, read once per batch: most orgs have
 * none, and asking per job was a query per job. Null when it could not be read (every event is
 * then recorded as before, each looking its endpoints up).
 */
export async function subscribedTypes(db: Db, orgId: string): Promise<Set<string> | null> {
  try {
    const endpoints = await db.webhookEndpoint.findMany({
      where: { orgId, enabled: true },
      select: { events: true },
    });
    return new Set(endpoints.flatMap((e) => e.events));
  } catch {
    return null;
  }
}

/**
 * Records the event (unless `subscribed` says no endpoint of the org wants its type); a failure to
 * record it is logged and never fails the job.
 */
export async function emitListingEvent(
  db: Db,
  log: Logger,
  type: WebhookEventType,
  event: ListingEvent,
  subscribed: Set<string> | null = null,
): Promise<void> {
  if (subscribed && !subscribed.has(type)) return;
  const { syncLog } = event;
  await recordWebhookEvent(db, {
    orgId: syncLog.orgId,
    type,
    data: {
      productId: syncLog.productId,
      destinationAccountId: syncLog.destinationAccountId,
      channel: event.channel,
      listingId: event.listingId,
      remoteId: event.remoteId,
      remoteUrl: event.remoteUrl,
      syncLogId: syncLog.id,
      trigger: syncLog.trigger,
      ...(event.error !== undefined ? { error: event.error } : {}),
    },
  }).catch((err: unknown) =>
    log.warn({ err, syncLogId: syncLog.id, type }, "could not record the webhook event"),
  );
}
