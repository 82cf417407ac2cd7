import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "./generated/client.js";

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
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    options: "-c jit=off",
  });
  const held = new Set<pg.PoolClient>();
  pool.on("acquire", (client) => held.add(client));
  pool.on("release", (_error, client) => held.delete(client));
  pool.on("remove", (client) => held.delete(client));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  heldConnections.set(db, held);
  return db;
}

// The pool's connections lent out (to a query or a transaction), for transactionConnection.
const heldConnections = new WeakMap<Db, Set<pg.PoolClient>>();

/**
 * The connection an interactive transaction of `db` runs on, found by its backend's process id:
 * for what Prisma cannot send, COPY above all, inside the transaction. The caller sends nothing
 * through `tx` while it uses the connection (the two would share it), and never releases it.
 */
export async function transactionConnection(
  db: Db,
  tx: Prisma.TransactionClient,
): Promise<pg.ClientBase> {
  const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const client = [...(heldConnections.get(db) ?? [])].find((c) => processIdOf(c) === row?.pid);
  if (!client) throw new Error("the transaction's connection is not one of this client's pool");
  return client;
}

/** pg sets it from the server's BackendKeyData; its typings leave it out. */
const processIdOf = (client: pg.PoolClient) =>
  (client as unknown as { processID: number }).processID;

/**
 * True when `error` is a unique-constraint violation: Prisma's, or the driver's own (23505) from a
 * statement sent on a transaction's connection (transactionConnection).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === "object" && error !== null && (error as { code?: unknown }).code;
  return code === "P2002" || code === "23505";
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
