// A pod of a new release starts only once the release's migration Job has applied every migration
// its image carries (`cli.js wait`, the Deployments' init container). It never migrates itself.
import { readdir } from "node:fs/promises";
import pg from "pg";
import { redact } from "./database-url.js";
import { defaultMigrationsDir } from "./repo-paths.js";

/** The migrations this image carries that the database has not finished applying. */
export async function pendingMigrations(
  connectionString: string,
  migrationsDir = defaultMigrationsDir,
): Promise<string[]> {
  const carried = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT migration_name AS name FROM _prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((row) => row.name));
    return carried.filter((name) => !applied.has(name)).sort();
  } catch (error) {
    // No _prisma_migrations yet: nothing was ever applied.
    if ((error as { code?: string }).code === "42P01") return carried.sort();
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Returns once every migration of this image is applied, saying every `everyMs` what it waits for
 * (a migration not yet applied, or the database out of reach).
 */
export async function waitForSchema(
  connectionString: string,
  {
    log = (line: string) => console.log(line),
    everyMs = 5_000,
    migrationsDir = defaultMigrationsDir,
  }: { log?: (line: string) => void; everyMs?: number; migrationsDir?: string } = {},
): Promise<void> {
  for (;;) {
    let waitingFor: string;
    try {
      const pending = await pendingMigrations(connectionString, migrationsDir);
      if (pending.length === 0) {
        log(`Schema ready: every migration of this release is applied`);
        return;
      }
      waitingFor = `${pending.length} migration${pending.length === 1 ? "" : "s"} not applied yet (newest: ${pending.at(-1)}); run this release's migration Job`;
    } catch (error) {
      waitingFor = `${redact(connectionString)} out of reach (${(error as Error).message})`;
    }
    log(`Waiting for the database schema: ${waitingFor}`);
    await new Promise((retry) => setTimeout(retry, everyMs));
  }
}
