// `deploy` applies pending migrations; `create <name>` writes a new one from prisma/schema.prisma;
// `wait` returns once every migration this tree carries is applied (a pod's init container).
// Run through the root scripts `pnpm db:migrate` and `pnpm db:migration:create <name>`.
import { relative } from "node:path";
import { applyMigrations } from "./apply-migrations.js";
import { assertMigrationName, createMigration } from "./create-migration.js";
import { ensureDatabase } from "./database-admin.js";
import { databaseName, databaseUrlFromEnv } from "./database-url.js";
import { lastEnginePanic } from "./schema-engine.js";
import { waitForSchema } from "./schema-wait.js";

const usage = "usage: cli.ts deploy | cli.ts create <name> | cli.ts wait";

class UsageError extends Error {}

async function deploy(connectionString: string): Promise<void> {
  if (await ensureDatabase(connectionString))
    console.log(`Created database ${databaseName(connectionString)}`);
  const { applied } = await applyMigrations(connectionString);
  if (applied.length === 0) {
    console.log("No pending migrations");
    return;
  }
  console.log(`Applied ${applied.length} migration${applied.length === 1 ? "" : "s"}:`);
  for (const name of applied) console.log(`  ${name}`);
}

async function create(connectionString: string, name: string | undefined): Promise<void> {
  if (!name) throw new UsageError(`create needs a migration name (${usage})`);
  try {
    assertMigrationName(name);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { dir } = await createMigration(name, { connectionString });
  console.log(
    dir
      ? `Created ${relative(process.cwd(), dir)}/migration.sql`
      : "No schema changes: nothing to migrate",
  );
}

// Engine errors put a generic first line over the database's own message and a Rust span trace;
// the span trace is where the failing migration is named.
function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const line = lines.find((each) => each !== "external connector error") ?? message;
  const migration = message.match(/migration_name="([^"]+)"/)?.[1];
  return migration && !line.includes(migration) ? `migration ${migration} failed: ${line}` : line;
}

function fail(error: unknown): void {
  console.error(`error: ${oneLine(error)}`);
  if (process.env.DEBUG) console.error(error);
}

// A Rust panic inside the engine is thrown from a wasm callback, outside any awaited promise, so
// the command never settles; report it and exit rather than hang on the open pools.
process.on("uncaughtException", (error) => {
  const panic = lastEnginePanic()
    ?.replace(/^panicked at [^\n]*\n/, "")
    .replaceAll("\n", " ");
  fail(panic ? new Error(`schema engine panic: ${panic}`) : error);
  process.exit(1);
});

async function main([command, ...args]: string[]): Promise<void> {
  if (command === "deploy" && args.length === 0) return deploy(databaseUrlFromEnv());
  if (command === "wait" && args.length === 0) return waitForSchema(databaseUrlFromEnv());
  if (command === "create" && args.length <= 1) return create(databaseUrlFromEnv(), args[0]);
  throw new UsageError(usage);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  fail(error);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
