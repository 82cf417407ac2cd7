import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type Db = PrismaClient;

export interface DbOptions {
  /** Largest number of pooled PostgreSQL connections. */
  poolSize?: number;
}

/**
 * A Prisma client on the pg driver adapter (no native engine). Call `$disconnect()` to end it.
 * Its sessions run without JIT compilation: PostgreSQL compiles a statement whose estimated cost
 * passes `jit_above_cost`, about 20 ms spent before a search that then runs in 6 (a plan's cost
 * counts the branches it never runs); nothing this service sends runs long enough to gain from it.
 * An `options` parameter in the connection string still wins.
 */
export function createDb(connectionString: string, options: DbOptions = {}): Db {
  const adapter = new PrismaPg({
    connectionString,
    max: options.poolSize ?? 10,
    options: "-c jit=off",
  });
  const db = new PrismaClient({ adapter });
  connectionStrings.set(db, connectionString);
  return db;
}

// What a bulk path needs to open a connection of its own (COPY, which Prisma cannot send).
const connectionStrings = new WeakMap<Db, string>();

/** The connection string `db` was made with (by createDb). */
export function connectionStringOf(db: Db): string {
  const url = connectionStrings.get(db);
  if (url === undefined) throw new Error("this client was not made by createDb");
  return url;
}

/** True when `error` is Prisma's unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002"
  );
}

/**
 * True when `error` is Prisma's "record to update or delete not found" (a row another transaction
 * just removed).
 */
export function isRecordNotFound(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025"
  );
}
