export { applyMigrations } from "./apply-migrations.js";
export { createMigration, type CreateMigrationOptions } from "./create-migration.js";
export { createDatabase, dropDatabase, ensureDatabase } from "./database-admin.js";
export { withDatabaseName } from "./database-url.js";
export { pendingMigrations, waitForSchema } from "./schema-wait.js";
