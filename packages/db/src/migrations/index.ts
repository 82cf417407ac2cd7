export { applyMigrations } from "./apply-migrations.js";
export { createMigration, type CreateMigrationOptions } from "./create-migration.js";
