/** How long each kind of growing record is kept (see `RetentionEnvSchema` in @catalog/config). */
export interface RetentionPolicy {
  /** Succeeded sync logs: days after creation. */
  syncLogSuccessDays: number;
  /** Failed sync logs: days after creation (at least `syncLogSuccessDays`). */
  syncLogFailureDays: number;
  /** Product history entries: days after they were written; null keeps them. */
  productHistoryDays: number | null;
  /** Rows of a stored or failed import: days after it ended. */
  importRowsDays: number;
  /** Sessions: days after they expired or were revoked. */
  sessionDays: number;
  /** Rows looked at (and at most removed) per statement. */
  batchSize: number;
  /** Pause between two statements. */
  batchPauseMs: number;
}

/** The policy the environment settings describe (the names of `RetentionEnvSchema`). */
export const retentionPolicyOf = (settings: {
  SYNC_LOG_SUCCESS_RETENTION_DAYS: number;
  SYNC_LOG_FAILURE_RETENTION_DAYS: number;
  PRODUCT_HISTORY_RETENTION_DAYS?: number | undefined;
  IMPORT_ROWS_RETENTION_DAYS: number;
  SESSION_RETENTION_DAYS: number;
  RETENTION_BATCH_SIZE: number;
  RETENTION_BATCH_PAUSE_MS: number;
}): RetentionPolicy => ({
  syncLogSuccessDays: settings.SYNC_LOG_SUCCESS_RETENTION_DAYS,
  syncLogFailureDays: settings.SYNC_LOG_FAILURE_RETENTION_DAYS,
  productHistoryDays: settings.PRODUCT_HISTORY_RETENTION_DAYS ?? null,
  importRowsDays: settings.IMPORT_ROWS_RETENTION_DAYS,
  sessionDays: settings.SESSION_RETENTION_DAYS,
  batchSize: settings.RETENTION_BATCH_SIZE,
  batchPauseMs: settings.RETENTION_BATCH_PAUSE_MS,
});
