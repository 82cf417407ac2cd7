import { readMigrationsList } from "./migrations-list.js";
import { defaultMigrationsDir } from "./repo-paths.js";
import { withSchemaEngine } from "./schema-engine.js";

/**
 * Applies the pending migrations of `migrationsDir` and records them in `_prisma_migrations`,
 * exactly as `prisma migrate deploy` does; the engine is the same one that command runs.
 */
export async function applyMigrations(
  connectionString: string,
  migrationsDir: string = defaultMigrationsDir,
): Promise<{ applied: string[] }> {
  const migrationsList = await readMigrationsList(migrationsDir);
  const { appliedMigrationNames } = await withSchemaEngine(connectionString, (engine) =>
    engine.applyMigrations({ migrationsList, filters: { externalTables: [], externalEnums: [] } }),
  );
  return { applied: appliedMigrationNames };
}
