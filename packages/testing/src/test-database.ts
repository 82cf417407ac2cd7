import { randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "@catalog/db/migrations";

/** The connection string for database `name` on the same server as `baseUrl`. */
export function withDatabase(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(baseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(baseUrl, "postgres") });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates a uniquely named, fully migrated database and returns its URL. */
export async function createTestDatabase(baseUrl: string, label = "test"): Promise<string> {
  const name = `catalog_${label}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  await onServer(baseUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(baseUrl, name);
  await applyMigrations(url);
  return url;
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^catalog_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop database "${name}": not a test database`);
  await onServer(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
