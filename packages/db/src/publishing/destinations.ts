import type { Db } from "../client.js";
import type { Channel, DestinationHealth, OutOfStockPolicy } from "../generated/enums.js";
import type { DestinationAccount, Prisma } from "../generated/client.js";
import { openCredentials, sealCredentials, type CredentialKeyring } from "../credentials.js";
import { isUuid } from "../ids.js";
import { lockInIdOrder } from "../row-locks.js";
import { invalid, notFound } from "../service-error.js";
import { retryOnConflict } from "../transaction-retry.js";
import { PENDING_SYNC_LOGS } from "./sync-logs.js";

export interface DestinationView {
  id: string;
  channel: Channel;
  name: string;
  health: DestinationHealth;
  /**
   * Channel settings the merchant chose (marketplace, category, policies...); never credentials.
   */
  settings: Record<string, unknown>;
  /** Automatic sync: live listings follow every change of what the channel receives. */
  autoSync: boolean;
  /** A live product out of stock: listing kept at 0, or ended and listed again on restock. */
  outOfStockPolicy: OutOfStockPolicy;
  connectedAt: string;
}

/** What a worker needs to call the channel: the destination with its credentials opened. */
export interface DestinationTarget {
  id: string;
  orgId: string;
  channel: Channel;
  baseUrl: string | null;
  credentials: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** What an automatic update does when the product runs out of stock. */
  outOfStockPolicy: OutOfStockPolicy;
}

export const toDestinationView = (d: DestinationAccount): DestinationView => ({
  id: d.id,
  channel: d.channel,
  name: d.name,
  health: d.health,
  settings: d.settings as Record<string, unknown>,
  autoSync: d.autoSync,
  outOfStockPolicy: d.outOfStockPolicy,
  connectedAt: d.connectedAt.toISOString(),
});

export interface NewDestination {
  orgId: string;
  channel: Channel;
  name: string;
  baseUrl?: string | null;
  externalId?: string | null;
  credentials: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

export async function createDestination(
  db: Db,
  keyring: CredentialKeyring,
  input: NewDestination,
): Promise<DestinationView> {
  const row = await db.destinationAccount.create({
    data: {
      orgId: input.orgId,
      channel: input.channel,
      name: input.name,
      baseUrl: input.baseUrl ?? null,
      externalId: input.externalId ?? null,
      settings: (input.settings ?? {}) as Prisma.InputJsonValue,
      ...sealCredentials(keyring, input.credentials),
    },
  });
  return toDestinationView(row);
}

/**
 * A destination from a channel's connect flow. Connecting the same store again (same channel and
 * externalId, still connected) replaces its credentials and keeps its settings, listings and
 * queue, instead of adding a second destination for one store.
 */
export async function connectDestination(
  db: Db,
  keyring: CredentialKeyring,
  input: NewDestination,
): Promise<{ destination: DestinationView; reconnected: boolean }> {
  const existing = input.externalId
    ? await db.destinationAccount.findFirst({
        where: {
          orgId: input.orgId,
          channel: input.channel,
          externalId: input.externalId,
          disconnectedAt: null,
        },
      })
    : null;
  if (!existing)
    return { destination: await createDestination(db, keyring, input), reconnected: false };
  const settings = { ...(input.settings ?? {}), ...(existing.settings as Record<string, unknown>) };
  const row = await db.destinationAccount.update({
    where: { id: existing.id },
    data: {
      name: input.name,
      baseUrl: input.baseUrl ?? existing.baseUrl,
      settings: settings as Prisma.InputJsonValue,
      health: "ok",
      fixedAt: new Date(),
      ...sealCredentials(keyring, input.credentials),
    },
  });
  return { destination: toDestinationView(row), reconnected: true };
}

/** The org's connected destinations, oldest first (by name within one millisecond). */
export async function listDestinations(db: Db, orgId: string): Promise<DestinationView[]> {
  const rows = await db.destinationAccount.findMany({
    where: { orgId, disconnectedAt: null },
    orderBy: [{ connectedAt: "asc" }, { name: "asc" }, { id: "asc" }],
  });
  return rows.map(toDestinationView);
}

/**
 * Loads a connected destination with its credentials opened; null when it is gone or disconnected.
 */
export async function loadDestinationTarget(
  db: Db,
  keyring: CredentialKeyring,
  id: string,
): Promise<DestinationTarget | null> {
  const d = await db.destinationAccount.findUnique({ where: { id } });
  if (!d || d.disconnectedAt || !d.credentials || !d.credentialsKeyId) return null;
  return {
    id: d.id,
    orgId: d.orgId,
    channel: d.channel,
    baseUrl: d.baseUrl,
    credentials: openCredentials(keyring, {
      credentials: d.credentials,
      credentialsKeyId: d.credentialsKeyId,
    }),
    settings: d.settings as Record<string, unknown>,
    outOfStockPolicy: d.outOfStockPolicy,
  };
}

/**
 * Seals and stores new credentials (a refreshed token) in place of the old ones, unless the
 * destination was disconnected meanwhile: its credentials must stay erased. True when stored.
 */
export async function replaceDestinationCredentials(
  db: Db,
  keyring: CredentialKeyring,
  id: string,
  credentials: Record<string, unknown>,
): Promise<boolean> {
  const { count } = await db.destinationAccount.updateMany({
    where: { id, disconnectedAt: null },
    data: sealCredentials(keyring, credentials),
  });
  return count === 1;
}

export interface DestinationPatch {
  name?: string;
  /** Merged into the settings; a null value removes that setting. */
  settings?: Record<string, unknown>;
  autoSync?: boolean;
  outOfStockPolicy?: OutOfStockPolicy;
}

/**
 * Renames a connected destination or changes its settings or its sync settings. `check` is the channel's own
 * settings check: when the merged settings still lack what publishing needs, nothing is
 * written and the answer is 422 naming every problem.
 */
export async function updateDestination(
  db: Db,
  orgId: string,
  id: string,
  patch: DestinationPatch,
  check: (channel: Channel, settings: Record<string, unknown>) => string[],
): Promise<DestinationView> {
  if (!isUuid(id)) throw notFound("destination");
  const found = await db.destinationAccount.findFirst({
    where: { id, orgId, disconnectedAt: null },
  });
  if (!found) throw notFound("destination");
  const settings: Record<string, unknown> = { ...(found.settings as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch.settings ?? {})) {
    if (value === null) delete settings[key];
    else settings[key] = value;
  }
  const problems = check(found.channel, settings);
  if (problems.length > 0) throw invalid(`settings: ${problems.join("; ")}`);
  const row = await db.destinationAccount.update({
    where: { id },
    data: {
      name: patch.name ?? found.name,
      settings: settings as Prisma.InputJsonValue,
      // Failures blamed on the settings become worth retrying only when a setting really changed.
      ...(sameSettings(found.settings as Record<string, unknown>, settings)
        ? {}
        : { fixedAt: new Date() }),
      autoSync: patch.autoSync ?? found.autoSync,
      outOfStockPolicy: patch.outOfStockPolicy ?? found.outOfStockPolicy,
    },
  });
  return toDestinationView(row);
}

function sameSettings(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]))
  );
}

export async function setDestinationHealth(
  db: Db,
  id: string,
  health: DestinationHealth,
): Promise<void> {
  await db.destinationAccount.updateMany({
    where: { id, health: { not: health } },
    data: { health },
  });
}

const DISCONNECTED = "the destination was disconnected";

/**
 * Disconnects a destination: its credentials are erased and its pending publishes and ends end
 * as `failed`; catalog products and listing history stay, and so do its listings on the store
 * (`listingsLeftLive` counts them). Disconnecting again changes nothing.
 * Returns the ids of the sync logs that were still pending (their jobs are to be removed). The
 * sync logs and then the listings are locked in id order, as publishes and workers lock them.
 */
export async function disconnectDestination(
  db: Db,
  orgId: string,
  id: string,
): Promise<{ pendingSyncLogIds: string[]; listingsLeftLive: number }> {
  if (!isUuid(id)) throw notFound("destination");
  return retryOnConflict(() =>
    db.$transaction(async (tx) => {
      const found = await tx.destinationAccount.findFirst({ where: { id, orgId } });
      if (!found) throw notFound("destination");
      const now = new Date();
      if (!found.disconnectedAt) {
        await tx.destinationAccount.update({
          where: { id },
          data: { disconnectedAt: now, credentials: null, credentialsKeyId: null, health: "down" },
        });
      }
      const pending = await tx.$queryRawUnsafe<{ id: string }[]>(
        `UPDATE sync_logs SET status = 'failed', error = $2, finished_at = $3, lease_until = NULL
       WHERE id IN (${lockInIdOrder("sync_logs", `destination_account_id = $1::uuid AND ${PENDING_SYNC_LOGS}`)}) RETURNING id`,
        id,
        DISCONNECTED,
        now,
      );
      await tx.$executeRawUnsafe(
        `UPDATE listings SET status = 'failed', last_error = $2
       WHERE id IN (${lockInIdOrder("listings", "destination_account_id = $1::uuid AND status IN ('queued', 'publishing', 'ending')")})`,
        id,
        DISCONNECTED,
      );
      // Disconnecting ends nothing on the store: its live listings stay there.
      const [left] = await tx.$queryRawUnsafe<{ live: number }[]>(
        `SELECT count(*)::int AS live FROM listings WHERE destination_account_id = $1::uuid AND remote_id IS NOT NULL AND status <> 'ended'`,
        id,
      );
      return { pendingSyncLogIds: pending.map((p) => p.id), listingsLeftLive: left?.live ?? 0 };
    }),
  );
}
