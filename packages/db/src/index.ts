export { createDb, isUniqueViolation, type Db } from "./client.js";
export { isTransactionConflict, retryOnConflict } from "./transaction-retry.js";
export { openChangeFeed, type Change, type ChangeFeedHandlers } from "./change-feed.js";
export { isUuid } from "./ids.js";
export { ServiceError, conflict, invalid, notFound } from "./service-error.js";
export {
  DATABASE_RETRY_AFTER_SECONDS,
  databaseUnavailable,
  isDatabaseUnavailable,
  retryWhileDatabaseUnavailable,
} from "./database-unavailable.js";
export { hashPassword, verifyPassword, sha256, randomToken } from "./secrets.js";
export * from "./accounts.js";
export * from "./sessions.js";
export * from "./password-resets.js";
export * from "./api-tokens.js";
export * from "./capped-count.js";
export * from "./products.js";
export * from "./history.js";
export * from "./legal.js";
export * from "./product-view.js";
export { fieldDiff, type FieldChanges } from "./field-diff.js";
export { seedDemo, type DemoSeed } from "./seed-demo.js";
export type {
  Role,
  Channel,
  LegalDocument,
  SyncStatus,
  DestinationHealth,
  ImportKind,
  ImportStatus,
  WatchSchedule,
  ImportRowOutcome,
} from "./generated/enums.js";
export * from "./product-import.js";
export * from "./credentials.js";
export * from "./publishing/destinations.js";
export * from "./publishing/publish-requests.js";
export * from "./publishing/publish-runs.js";
export * from "./publishing/sync-logs.js";
export * from "./publishing/recovery-pages.js";
export * from "./publishing/sync-failure.js";
export * from "./publishing/publish-attempts.js";
export * from "./imports/import-records.js";
export * from "./imports/import-mappings.js";
export * from "./imports/import-rows.js";
export * from "./imports/import-store.js";
export * from "./publishing/channel-reports.js";
export * from "./publishing/listing-ends.js";
export * from "./sync/listing-sync.js";
export * from "./sync/change-syncs.js";
export * from "./webhooks/webhook-events.js";
export * from "./source-watch/watch-view.js";
export * from "./source-watch/product-watch.js";
export * from "./source-watch/source-recheck.js";
export * from "./webhooks/webhook-endpoints.js";
export * from "./webhooks/webhook-deliveries.js";
export * from "./webhooks/webhook-attempts.js";
