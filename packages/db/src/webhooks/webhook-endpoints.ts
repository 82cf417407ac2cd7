import { randomBytes } from "node:crypto";
import type { Db } from "../client.js";
import type { WebhookEndpoint } from "../generated/client.js";
import { openCredentials, sealCredentials, type CredentialKeyring } from "../credentials.js";
import { isUuid } from "../ids.js";
import { ServiceError, invalid, notFound } from "../service-error.js";
import { WEBHOOK_EVENT_TYPES } from "./webhook-events.js";

// An org's webhook endpoints (owners manage them). The signing secret is generated here, sealed
// with the credentials keyring like channel tokens, and returned only by createWebhookEndpoint.

export const MAX_WEBHOOK_ENDPOINTS = 20;

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toWebhookEndpointView = (row: WebhookEndpoint): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabledAt: row.disabledAt?.toISOString() ?? null,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

/** The endpoint's secret in clear, for signing. */
export function openWebhookSecret(
  keyring: CredentialKeyring,
  endpoint: Pick<WebhookEndpoint, "secret" | "secretKeyId">,
): string {
  const opened = openCredentials(keyring, {
    credentials: endpoint.secret,
    credentialsKeyId: endpoint.secretKeyId ?? "",
  });
  return String(opened.secret);
}

/** 422 naming the event types that do not exist; duplicates are dropped. */
export function checkWebhookEvents(events: string[]): string[] {
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  const unknown = [...new Set(events.filter((type) => !known.has(type)))];
  if (unknown.length > 0)
    throw invalid(
      `unknown event type${unknown.length > 1 ? "s" : ""} ${unknown.map((t) => `"${t}"`).join(", ")}; known types: ${WEBHOOK_EVENT_TYPES.join(", ")}`,
    );
  return [...new Set(events)];
}

export interface WebhookEndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

export async function createWebhookEndpoint(
  db: Db,
  keyring: CredentialKeyring,
  orgId: string,
  input: WebhookEndpointInput,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const events = checkWebhookEvents(input.events);
  const secret = newWebhookSecret();
  const sealed = sealCredentials(keyring, { secret });
  const row = await db.$transaction(async (tx) => {
    // Serialises the org's creations, so the limit holds under concurrent requests.
    await tx.$executeRaw`SELECT 1 FROM orgs WHERE id = ${orgId}::uuid FOR UPDATE`;
    const count = await tx.webhookEndpoint.count({ where: { orgId } });
    if (count >= MAX_WEBHOOK_ENDPOINTS)
      throw new ServiceError(
        409,
        `an org can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`,
      );
    return tx.webhookEndpoint.create({
      data: {
        orgId,
        url: input.url,
        description: input.description?.trim() || null,
        events,
        secret: sealed.credentials,
        secretKeyId: sealed.credentialsKeyId,
      },
    });
  });
  return { endpoint: toWebhookEndpointView(row), secret };
}

export async function listWebhookEndpoints(db: Db, orgId: string): Promise<WebhookEndpointView[]> {
  const rows = await db.webhookEndpoint.findMany({
    where: { orgId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toWebhookEndpointView);
}

export async function findWebhookEndpoint(
  db: Db,
  orgId: string,
  id: string,
): Promise<WebhookEndpoint> {
  const row = isUuid(id) ? await db.webhookEndpoint.findFirst({ where: { id, orgId } }) : null;
  if (!row) throw notFound(`webhook endpoint ${id}`);
  return row;
}

export interface WebhookEndpointChange {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** Re-enabling clears the disabled state and the failing run, so the endpoint starts afresh. */
export async function updateWebhookEndpoint(
  db: Db,
  orgId: string,
  id: string,
  change: WebhookEndpointChange,
): Promise<WebhookEndpointView> {
  const current = await findWebhookEndpoint(db, orgId, id);
  const events = change.events === undefined ? undefined : checkWebhookEvents(change.events);
  const row = await db.webhookEndpoint.update({
    where: { id: current.id },
    data: {
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(events === undefined ? {} : { events }),
      ...(change.description === undefined
        ? {}
        : { description: change.description?.trim() || null }),
      ...(change.enabled === undefined
        ? {}
        : change.enabled
          ? { enabled: true, disabledAt: null, disabledReason: null, failingSince: null }
          : { enabled: false, disabledAt: current.disabledAt ?? new Date() }),
    },
  });
  return toWebhookEndpointView(row);
}

export async function deleteWebhookEndpoint(db: Db, orgId: string, id: string): Promise<void> {
  const current = await findWebhookEndpoint(db, orgId, id);
  await db.webhookEndpoint.delete({ where: { id: current.id } });
}
