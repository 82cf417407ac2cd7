export const defaultDatabaseUrl = "postgresql://postgres@127.0.0.1:5432/catalog";

export function databaseUrlFromEnv(): string {
  const url = process.env.DATABASE_URL || defaultDatabaseUrl;
  if (!URL.canParse(url))
    throw new Error(
      "DATABASE_URL is not a valid URL (expected postgresql://user@host:port/database)",
    );
  return url;
}

export function databaseName(connectionString: string): string {
  const name = decodeURIComponent(new URL(connectionString).pathname.replace(/^\//, ""));
  if (!name) throw new Error(`The database URL names no database: ${redact(connectionString)}`);
  return name;
}

/** The same server and credentials, another database. */
export function withDatabaseName(connectionString: string, name: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** PostgreSQL always has this database; whole databases are created and dropped from it. */
export function maintenanceUrl(connectionString: string): string {
  return withDatabaseName(connectionString, "postgres");
}

/** The URL without its password, for messages. */
export function redact(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(unparseable database URL)";
  }
}
