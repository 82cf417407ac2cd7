import { PrismaPg } from "@prisma/adapter-pg";
import { databaseName, maintenanceUrl } from "./database-url.js";

type Pool = ReturnType<Awaited<ReturnType<PrismaPg["connect"]>>["underlyingDriver"]>;

async function onMaintenanceDatabase<T>(
  connectionString: string,
  use: (pool: Pool) => Promise<T>,
): Promise<T> {
  const adapter = await new PrismaPg({
    connectionString: maintenanceUrl(connectionString),
    max: 1,
  }).connect();
  try {
    return await use(adapter.underlyingDriver());
  } finally {
    await adapter.dispose();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function databaseExists(connectionString: string): Promise<boolean> {
  const name = databaseName(connectionString);
  return onMaintenanceDatabase(connectionString, async (pool) => {
    const { rowCount } = await pool.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    return (rowCount ?? 0) > 0;
  });
}

/** Creates the database the URL names unless it exists; true when it was created. */
export async function ensureDatabase(connectionString: string): Promise<boolean> {
  if (await databaseExists(connectionString)) return false;
  const name = databaseName(connectionString);
  await onMaintenanceDatabase(connectionString, (pool) =>
    pool.query(`CREATE DATABASE ${quoteIdentifier(name)}`),
  );
  return true;
}

export async function createDatabase(connectionString: string): Promise<void> {
  const name = databaseName(connectionString);
  await onMaintenanceDatabase(connectionString, (pool) =>
    pool.query(`CREATE DATABASE ${quoteIdentifier(name)}`),
  );
}

/** FORCE ends sessions a failed run may have left behind, so the drop cannot be refused. */
export async function dropDatabase(connectionString: string): Promise<void> {
  const name = databaseName(connectionString);
  await onMaintenanceDatabase(connectionString, (pool) =>
    pool.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`),
  );
}
