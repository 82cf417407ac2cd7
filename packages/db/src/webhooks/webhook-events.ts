import { randomBytes } from "node:crypto";
import type { Db } from "../client.js";
import type { Prisma } from "../generated/client.js";

// Webhooks out (issue 29): an event is recorded as one pending delivery per enabled endpoint of
// the org that subscribed to its type, in the caller's transaction when it has one (an outbox),
// and sent from a queue by the webhook sender (apps/import-worker/src/webhooks), which also sweeps
// up every pending delivery that is due, so nothing recorded is lost if Redis is flushed.

export const WEBHOOK_EVENT_TYPES = [
  "import.finished",
  "import.failed",
  "listing.published",
  "listing.publish_failed",
  "listing.synced",
  "listing.sync_failed",
  "listing.ended",
  "listing.channel_report",
  "product.source_changed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by `POST /api/webhooks/:id/test`, to the one endpoint; no subscription needed. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export interface WebhookEvent {
  orgId: string;
  type: WebhookEventType;
  /** The event's `data` (Standard Webhooks payload: `{ type, timestamp, data }`). */
  data: Record<string, unknown>;
}

/** The db or a transaction's client. */
export type WebhookDbClient = Db | Prisma.TransactionClient;

/** A Standard Webhooks message id: the same for every attempt and replay of one delivery. */
export const newMessageId = (): string => `msg_${randomBytes(16).toString("base64url")}`;

/** The body that is signed and sent: `{ type, timestamp, data }`. */
export const webhookPayload = (type: string, data: Record<string, unknown>, at = new Date()) => ({
  type,
  timestamp: at.toISOString(),
  data,
});

/**
 * Records the event's deliveries (due at once) and returns their ids; the caller may enqueue them
 * after its transaction commits (`WebhookQueue.enqueueDue`), else the sender's sweep finds them.
 * Never fails the caller's own work: outside a transaction an error is swallowed (the event is
 * lost, the caller's work stands).
 */
export async function recordWebhookEvent(
  db: WebhookDbClient,
  event: WebhookEvent,
): Promise<string[]> {
  try {
    const endpoints = await db.webhookEndpoint.findMany({
      where: { orgId: event.orgId, enabled: true, events: { has: event.type } },
      select: { id: true },
    });
    if (endpoints.length === 0) return [];
    const now = new Date();
    const payload = webhookPayload(event.type, event.data, now);
    const rows = await db.webhookDelivery.createManyAndReturn({
      data: endpoints.map((endpoint) => ({
        orgId: event.orgId,
        endpointId: endpoint.id,
        messageId: newMessageId(),
        eventType: event.type,
        payload: payload as Prisma.InputJsonValue,
        nextAttemptAt: now,
      })),
      select: { id: true },
    });
    return rows.map((row) => row.id);
  } catch {
    return [];
  }
}
