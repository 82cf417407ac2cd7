import type { FastifyRequest } from "fastify";
import type { ApiTokenScope } from "@catalog/db";

/**
 * Which operations an organisation API token (`Authorization: Bearer cat_...`) opens, and with
 * which scope: the one place this is decided. A token with any one of the listed scopes may call
 * the operation (and its `/api/v1` twin). An operation not listed here is for a signed-in
 * session only, whatever the token's scopes: signing in and out, legal signatures, extension
 * keys, API tokens, webhooks, connecting a store (an OAuth flow in the owner's browser) and the
 * platform operator's `/api/system`. The OpenAPI document lists the scopes per operation from
 * this table (`security: [{ session: [] }, { apiToken: [scope] }]`).
 */
export const TOKEN_SCOPES: Readonly<Record<string, readonly ApiTokenScope[]>> = {
  // Reading the catalog, its history and the imports (with their previewed rows).
  listProducts: ["catalog:read"],
  getProduct: ["catalog:read"],
  listProductHistory: ["catalog:read"],
  listImports: ["catalog:read"],
  getImport: ["catalog:read"],
  listImportRows: ["catalog:read"],
  listImportMappings: ["catalog:read"],
  // Changing the catalog: edits, deletions, source watch, and every import step (a preview is
  // the first step of a write, so it needs the write scope too).
  updateProduct: ["catalog:write"],
  deleteProduct: ["catalog:write"],
  setProductWatch: ["catalog:write"],
  checkProductSource: ["catalog:write"],
  importUrls: ["catalog:write"],
  scrapeUrls: ["catalog:write"],
  importDocument: ["catalog:write"],
  startImport: ["catalog:write"],
  previewImportColumns: ["catalog:write"],
  storeImport: ["catalog:write"],
  discardImport: ["catalog:write"],
  saveImportMapping: ["catalog:write"],
  deleteImportMapping: ["catalog:write"],
  // Publishing and ending listings, and following what came of it.
  publishProducts: ["publish"],
  unpublishProducts: ["publish"],
  retryPublishRun: ["publish"],
  listPublishRuns: ["publish"],
  getPublishRun: ["publish"],
  followPublishRun: ["publish"],
  listSyncLogs: ["publish"],
  // The destinations and channels: a publisher needs their ids, a manager changes them.
  listDestinations: ["publish", "destinations:manage"],
  listChannels: ["publish", "destinations:manage"],
  updateDestination: ["destinations:manage"],
  disconnectDestination: ["destinations:manage"],
};

/** The scopes that open an operation to a token (any one of them); empty: session only. */
export function scopesOfOperation(operationId: unknown): readonly ApiTokenScope[] {
  return typeof operationId === "string" && Object.hasOwn(TOKEN_SCOPES, operationId)
    ? (TOKEN_SCOPES[operationId] ?? [])
    : [];
}

/** The scopes that open a request's route to a token. */
export const tokenScopesOf = (request: FastifyRequest): readonly ApiTokenScope[] =>
  scopesOfOperation(
    (request.routeOptions.schema as { operationId?: unknown } | undefined)?.operationId,
  );
