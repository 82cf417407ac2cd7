import { loadRetentionConfig } from "@catalog/config";
import { conflict } from "@catalog/db";
import { retentionPolicyOf, runRetentionPass } from "@catalog/db/retention";
import type { Command } from "./commands-kit.js";

/**
 * One retention pass by hand, with the settings the environment gives (the import worker's
 * RETENTION_* and *_RETENTION_DAYS variables). Refused (exit code 1) while another
 * pass runs.
 */
export const retention: Command = {
  usage:
    "retention     (one pass now: SYNC_LOG_SUCCESS_RETENTION_DAYS, SYNC_LOG_FAILURE_RETENTION_DAYS, PRODUCT_HISTORY_RETENTION_DAYS, IMPORT_ROWS_RETENTION_DAYS, SESSION_RETENTION_DAYS)",
  async run(_db, _flags, _readSecret, config) {
    const policy = retentionPolicyOf(loadRetentionConfig());
    const outcome = await runRetentionPass(config.DATABASE_URL, policy);
    if (!outcome.ran) throw conflict(outcome.reason);
    const { removed } = outcome;
    return {
      text:
        `Removed ${removed.syncLogs} sync logs, ${removed.productHistory} history entries, ` +
        `${removed.importRows} import rows, ${removed.imports} expired imports and ${removed.sessions} sessions ` +
        `in ${(outcome.durationMs / 1000).toFixed(1)} s`,
      json: outcome,
    };
  },
};
