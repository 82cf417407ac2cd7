import { ConfigError, loadRetentionConfig } from "@catalog/config";
import { loadImportWorkerConfig } from "@catalog/config/import-worker";

test("retention defaults: successes 30 days, failures 90, import rows 3, sessions 1, history kept", () => {
  expect(loadRetentionConfig({})).toMatchObject({
    RETENTION: true,
    SYNC_LOG_SUCCESS_RETENTION_DAYS: 30,
    SYNC_LOG_FAILURE_RETENTION_DAYS: 90,
    IMPORT_ROWS_RETENTION_DAYS: 3,
    SESSION_RETENTION_DAYS: 1,
  });
  expect(loadRetentionConfig({}).PRODUCT_HISTORY_RETENTION_DAYS).toBeUndefined();
  expect(loadRetentionConfig({ PRODUCT_HISTORY_RETENTION_DAYS: "365" })).toMatchObject({
    PRODUCT_HISTORY_RETENTION_DAYS: 365,
  });
});

test("failures kept for less time than successes is refused, naming both settings", () => {
  const env = { SYNC_LOG_SUCCESS_RETENTION_DAYS: "60", SYNC_LOG_FAILURE_RETENTION_DAYS: "30" };
  expect(() => loadRetentionConfig(env)).toThrow(ConfigError);
  expect(() => loadRetentionConfig(env)).toThrow(
    /SYNC_LOG_FAILURE_RETENTION_DAYS \(30\) must be at least SYNC_LOG_SUCCESS_RETENTION_DAYS \(60\)/,
  );
  // The import worker, which runs the pass, refuses to start on it too.
  expect(() => loadImportWorkerConfig(env)).toThrow(ConfigError);
});

test("a retention that is not a whole number of days, or zero where a day is the least, is named", () => {
  expect(() => loadRetentionConfig({ SYNC_LOG_SUCCESS_RETENTION_DAYS: "a month" })).toThrow(
    /SYNC_LOG_SUCCESS_RETENTION_DAYS: must be integer/,
  );
  expect(() => loadRetentionConfig({ PRODUCT_HISTORY_RETENTION_DAYS: "0" })).toThrow(
    /PRODUCT_HISTORY_RETENTION_DAYS: must be >= 1/,
  );
});
