import type { Db } from "../client.js";
import type { Prisma, WebhookDelivery } from "../generated/client.js";
import { isUuid } from "../ids.js";
import { invalid, notFound } from "../service-error.js";
import { findWebhookEndpoint } from "./webhook-endpoints.js";
import { WEBHOOK_TEST_EVENT, newMessageId, webhookPayload } from "./webhook-events.js";

// The delivery log of an endpoint, and the deliveries an owner asks for: a test event and the
// replay of an earlier delivery (same webhook-id, so a receiver that already processed it can
// tell). Both are due at once; the caller enqueues them.

export interface WebhookDeliveryView {
  id: string;
  messageId: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

export const toWebhookDeliveryView = (row: WebhookDelivery): WebhookDeliveryView => ({
  id: row.id,
  messageId: row.messageId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  error: row.error,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  // Only a pending delivery has a next attempt.
  nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
});

/** Newest first. */
export async function listWebhookDeliveries(
  db: Db,
  orgId: string,
  endpointId: string,
  page: { page: number; pageSize: number },
): Promise<{ items: WebhookDeliveryView[]; total: number }> {
  const endpoint = await findWebhookEndpoint(db, orgId, endpointId);
  const where = { endpointId: endpoint.id };
  const [rows, total] = await Promise.all([
    db.webhookDelivery.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page.page - 1) * page.pageSize,
      take: page.pageSize,
    }),
    db.webhookDelivery.count({ where }),
  ]);
  return { items: rows.map(toWebhookDeliveryView), total };
}

/** A `webhook.test` delivery to this endpoint alone (enabled or not: the owner asked). */
export async function createTestDelivery(
  db: Db,
  orgId: string,
  endpointId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await findWebhookEndpoint(db, orgId, endpointId);
  const now = new Date();
  const row = await db.webhookDelivery.create({
    data: {
      orgId,
      endpointId: endpoint.id,
      messageId: newMessageId(),
      eventType: WEBHOOK_TEST_EVENT,
      payload: webhookPayload(
        WEBHOOK_TEST_EVENT,
        { endpointId: endpoint.id, message: "A test event sent from the catalog service" },
        now,
      ) as Prisma.InputJsonValue,
      nextAttemptAt: now,
    },
  });
  return toWebhookDeliveryView(row);
}

/**
 * A new delivery of an earlier one's message: the same webhook-id and payload, sent again from
 * the first attempt. The earlier delivery stays in the log as it was. An endpoint that is
 * disabled must be enabled first (422).
 */
export async function replayWebhookDelivery(
  db: Db,
  orgId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await findWebhookEndpoint(db, orgId, endpointId);
  const original = isUuid(deliveryId)
    ? await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id } })
    : null;
  if (!original) throw notFound(`webhook delivery ${deliveryId}`);
  if (!endpoint.enabled && original.eventType !== WEBHOOK_TEST_EVENT)
    throw invalid(`webhook endpoint ${endpoint.id} is disabled; enable it before sending again`);
  const row = await db.webhookDelivery.create({
    data: {
      orgId,
      endpointId: endpoint.id,
      messageId: original.messageId,
      eventType: original.eventType,
      payload: original.payload as Prisma.InputJsonValue,
      nextAttemptAt: new Date(),
    },
  });
  return toWebhookDeliveryView(row);
}
