import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type {
  MigrationList,
  SchemaFilter,
  SchemasContainer,
} from "@prisma/schema-engine-wasm/schema_engine_bg";
import { applyMigrations } from "./apply-migrations.js";
import { createDatabase, dropDatabase } from "./database-admin.js";
import {
  databaseName,
  databaseUrlFromEnv,
  maintenanceUrl,
  withDatabaseName,
} from "./database-url.js";
import {
  lockfileContent,
  lockfileName,
  migrationFileName,
  readMigrationsList,
} from "./migrations-list.js";
import { defaultMigrationsDir, defaultSchemaPath } from "./repo-paths.js";
import { datasourceOnlySchema, type SchemaEngine, withSchemaEngine } from "./schema-engine.js";

export interface CreateMigrationOptions {
  /** The Prisma schema to migrate to; default prisma/schema.prisma. */
  schemaPath?: string;
  /** Where migrations live and the new one is written; default prisma/migrations. */
  migrationsDir?: string;
  /**
   * A database URL; only its server is used, to hold a temporary database. Default DATABASE_URL.
   */
  connectionString?: string;
  /** The clock the directory's timestamp is read from. */
  now?: Date;
}

export const migrationNamePattern = /^[a-z0-9_]+$/;

export function assertMigrationName(name: string): void {
  if (!migrationNamePattern.test(name)) {
    throw new Error(
      `Invalid migration name ${JSON.stringify(name)}: use only lowercase letters, digits and underscores`,
    );
  }
}

const noFilter: SchemaFilter = { externalTables: [], externalEnums: [] };

// Extensions are not declared in the schema (that needs a preview feature), so a diff from empty
// never creates them; the trigram GIN indexes cannot be built without this one.
const trigramExtension = "CREATE EXTENSION IF NOT EXISTS pg_trgm;\n\n";

/**
 * Writes `<migrationsDir>/<YYYYMMDDHHMMSS>_<name>/migration.sql` holding the SQL that takes a
 * database from where the existing migrations leave it to the schema. Writes nothing and
 * returns `dir: null` when there is no difference.
 */
export async function createMigration(
  name: string,
  opts: CreateMigrationOptions = {},
): Promise<{ dir: string | null; sql: string }> {
  assertMigrationName(name);
  const schemaPath = opts.schemaPath ?? defaultSchemaPath;
  const migrationsDir = opts.migrationsDir ?? defaultMigrationsDir;
  const connectionString = opts.connectionString ?? databaseUrlFromEnv();

  const schema = { files: [{ path: schemaPath, content: await readFile(schemaPath, "utf8") }] };
  const migrations = await readMigrationsList(migrationsDir);
  for (const { path, migrationFile } of migrations.migrationDirectories) {
    if (migrationFile.content.tag === "error")
      throw new Error(`Cannot read migration ${path}: ${migrationFile.content.value}`);
  }

  let sql: string;
  if (migrations.migrationDirectories.length === 0) {
    // The engine connects as soon as it starts, though this diff reads no database; the
    // maintenance database is there even before the project's own has been created.
    sql = await withSchemaEngine(maintenanceUrl(connectionString), (engine) =>
      diffToSchema(engine, { tag: "empty" }, schema),
    );
    if (sql && schema.files.some((file) => file.content.includes("gin_trgm_ops")))
      sql = trigramExtension + sql;
  } else {
    sql = await diffFromMigrations(connectionString, migrationsDir, schemaPath, schema);
  }
  if (!sql) return { dir: null, sql: "" };

  const dir = join(migrationsDir, `${timestampAfter(migrations, opts.now ?? new Date())}_${name}`);
  await mkdir(migrationsDir, { recursive: true });
  await mkdir(dir);
  await writeFile(join(dir, migrationFileName), sql, "utf8");
  await writeFile(join(migrationsDir, lockfileName), lockfileContent, "utf8");
  return { dir, sql };
}

type DiffSource = Parameters<SchemaEngine["diff"]>[0]["from"];

async function diffToSchema(
  engine: SchemaEngine,
  from: DiffSource,
  schema: SchemasContainer,
): Promise<string> {
  const { exitCode, stdout } = await engine.diff({
    from,
    to: { tag: "schemaDatamodel", ...schema },
    script: true,
    exitCode: true,
    filters: noFilter,
  });
  // With exitCode requested the engine answers 2 when there is a difference, 0 when there is none.
  return exitCode === 2 && stdout ? stdout : "";
}

// Diffing from `{ tag: "migrations" }` needs a shadow database, and the wasm engine, instead of
// creating one, replays the migrations into the database it is bound to. So the migrations are
// replayed into a throwaway database of our own, and its live schema is diffed to the target.
async function diffFromMigrations(
  connectionString: string,
  migrationsDir: string,
  schemaPath: string,
  schema: SchemasContainer,
): Promise<string> {
  const scratchName =
    `${databaseName(connectionString)}_migrate_tmp_${randomBytes(6).toString("hex")}`.slice(-63);
  const scratchUrl = withDatabaseName(connectionString, scratchName);
  await createDatabase(scratchUrl);
  try {
    await applyMigrations(scratchUrl, migrationsDir);
    const live: DiffSource = {
      tag: "schemaDatasource",
      files: [{ path: schemaPath, content: datasourceOnlySchema }],
      configDir: dirname(schemaPath),
    };
    return await withSchemaEngine(scratchUrl, (engine) => diffToSchema(engine, live, schema));
  } finally {
    await dropDatabase(scratchUrl);
  }
}

// The directory names order the migrations, so a new one must sort after the last, even if the
// clock says otherwise (two migrations in one second, or a skewed clock).
function timestampAfter(migrations: MigrationList, now: Date): string {
  const last = migrations.migrationDirectories.at(-1)?.path.match(/^(\d{14})_/)?.[1];
  let at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  if (last && formatTimestamp(at) <= last) at = new Date(parseTimestamp(last).getTime() + 1000);
  return formatTimestamp(at);
}

// UTC, as `prisma migrate dev` names its directories.
function formatTimestamp(at: Date): string {
  return at.toISOString().replace(/\D/g, "").slice(0, 14);
}

function parseTimestamp(stamp: string): Date {
  const [, y, mo, d, h, mi, s] = stamp.match(/^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/) ?? [];
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}
