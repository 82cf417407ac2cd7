import { randomBytes } from "node:crypto";
import {
  applyMigrations,
  createDatabase,
  dropDatabase,
  withDatabaseName,
} from "@catalog/db/migrations";

const TEST_DATABASE = /^catalog_[a-z0-9_]+$/;

/**
 * Creates a uniquely named, fully migrated database on the server of `baseUrl` and returns its URL.
 */
export async function createTestDatabase(baseUrl: string, label = "test"): Promise<string> {
  const url = withDatabaseName(
    baseUrl,
    `catalog_${label}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`,
  );
  await createDatabase(url);
  await applyMigrations(url);
  return url;
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!TEST_DATABASE.test(name))
    throw new Error(`refusing to drop database "${name}": not a test database`);
  await dropDatabase(url);
}
