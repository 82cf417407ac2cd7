// Prisma's schema engine, as WebAssembly, bound to one PostgreSQL database. The `prisma` CLI
// would download a native engine binary, which these machines cannot reach.
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { EnginePg } from "./engine-pg-adapter.js";
import { holdEngineTimers, loadSchemaEngine } from "./schema-engine-wasm.js";

export type { SchemaEngine };
export { lastEnginePanic } from "./schema-engine-wasm.js";

export interface OpenSchemaEngine {
  engine: SchemaEngine;
  /** Frees the engine and ends every connection pool it opened, so the process can exit. */
  close: () => Promise<void>;
}

// The engine panics when constructed without a schema; a bare datasource is enough for
// commands that take their schema from their own arguments.
export const datasourceOnlySchema = 'datasource db {\n  provider = "postgresql"\n}\n';
const datasourceOnly: [string, string][] = [["schema.prisma", datasourceOnlySchema]];

function logFromEngine(message: unknown): void {
  if (process.env.DEBUG) process.stderr.write(`[schema-engine] ${String(message)}\n`);
}

/** The engine connects at once, so the database must exist. */
export async function openSchemaEngine(
  connectionString: string,
  datamodels: [string, string][] = datasourceOnly,
): Promise<OpenSchemaEngine> {
  const SchemaEngineClass = await loadSchemaEngine();
  // The engine takes its migration advisory lock on whichever pooled connection runs that query;
  // closing idle connections would let the lock go while a long migration still runs.
  const factory = new EnginePg({ connectionString, idleTimeoutMillis: 0 });
  const releaseTimers = holdEngineTimers();
  let engine: SchemaEngine;
  try {
    engine = await SchemaEngineClass.new(
      { datamodels },
      logFromEngine,
      bindMigrationAwareSqlAdapterFactory(factory),
    );
  } catch (error) {
    await factory.disposeAll();
    releaseTimers();
    throw error;
  }
  let closed = false;
  return {
    engine,
    close: async () => {
      if (closed) return;
      closed = true;
      engine.free();
      await factory.disposeAll();
      releaseTimers();
    },
  };
}

export async function withSchemaEngine<T>(
  connectionString: string,
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { engine, close } = await openSchemaEngine(connectionString);
  try {
    return await use(engine);
  } finally {
    await close();
  }
}
