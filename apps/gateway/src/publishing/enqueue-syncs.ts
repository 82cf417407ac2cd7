import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import type { SyncCollector } from "@catalog/db";
import { enqueueRecorded } from "./enqueue-recorded.js";

/** Who made a change, as sync logs name it: the user's email (and API token), or the API key. */
export function changedBy(request: FastifyRequest): string {
  if (request.principal && request.apiToken)
    return `${request.principal.user.email} (API token "${request.apiToken.name}")`;
  if (request.principal) return request.principal.user.email;
  if (request.apiKey) return `API key ${request.apiKey.id}`;
  return "the service";
}

/** A collector for the automatic syncs a product write plans (see `@catalog/db` change-syncs). */
export const syncCollector = (by: string): SyncCollector => ({ by, records: [] });

/**
 * Enqueues the syncs a committed write planned (automatic sync): like a publish, recorded in
 * PostgreSQL first, so a failure here is finished by the workers' recovery.
 */
export async function enqueueSyncs(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  orgId: string,
  sync: SyncCollector,
): Promise<void> {
  if (sync.records.length > 0) await enqueueRecorded(app, log, orgId, sync.records);
}
