import { setTimeout as sleep } from "node:timers/promises";
import { ServiceError } from "./service-error.js";

/** Seconds a client is asked to wait before trying again while PostgreSQL cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** What a client is told while PostgreSQL cannot be reached (503 with Retry-After). */
export const databaseUnavailable = () =>
  new ServiceError(503, "the database is unavailable right now; try again in a few seconds", {
    "retry-after": String(DATABASE_RETRY_AFTER_SECONDS),
  });

// Prisma's own codes for a server it cannot reach, that timed out, or closed the connection, and
// for its connection pool's timeout.
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
// @prisma/adapter-pg's kinds for socket failures and a full server.
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
// SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now (starting up, shutting down),
// too_many_connections; class 08 (connection exception) is matched by prefix.
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
// Socket failures the adapter does not map (it maps refused, reset, timed out, not found), which
// Prisma passes on under their own code: only there do they name PostgreSQL, since a Redis or
// HTTP client's errors carry the same codes.
const SOCKET_CODES = new Set(["EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
// node-postgres's errors that carry no code (a connection ended under a query, a client used
// after that, the pool's connect timeout), and Prisma's P2028 when no connection came in time
// to start a transaction (its other P2028s are about a transaction that ran too long).
const PG_MESSAGES =
  /^Connection terminated|is not queryable|^timeout exceeded when trying to connect/;
const NO_CONNECTION_FOR_TRANSACTION = /Unable to start a transaction in the given time/;

function matches(error: Record<string, unknown>): boolean {
  const { code, kind, message } = error;
  const text = typeof message === "string" ? message : "";
  if (typeof code === "string") {
    if (PRISMA_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (code === "P2028" && NO_CONNECTION_FOR_TRANSACTION.test(text)) return true;
    if (SOCKET_CODES.has(code) && typeof error.clientVersion === "string") return true;
  }
  if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
  return PG_MESSAGES.test(text);
}

/**
 * True when `error` says PostgreSQL could not be reached or dropped the connection, as opposed
 * to a query that failed: Prisma's errors (the driver adapter's error under
 * `meta.driverAdapterError`, its details under `cause`; node-postgres' own passed through), and
 * node-postgres's SQLSTATEs and messages from a raw client. A query can simply be tried again
 * once the server is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== "object" || next === null || seen.has(next)) continue;
    seen.add(next);
    const record = next as Record<string, unknown>;
    if (matches(record)) return true;
    pending.push(
      record.cause,
      (record.meta as Record<string, unknown> | undefined)?.driverAdapterError,
    );
  }
  return false;
}

/**
 * Runs `step`, and runs it again while it fails because PostgreSQL is unavailable (waiting a
 * little longer each time, up to a second), until it succeeds, fails otherwise, or `signal`
 * aborts (with the signal's reason). Only for a step that may run twice: one whose commit was
 * lost with its connection may have committed.
 */
export async function retryWhileDatabaseUnavailable<T>(
  step: () => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  for (let waitMs = 100; ; waitMs = Math.min(waitMs * 2, 1_000)) {
    try {
      return await step();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      await sleep(waitMs, undefined, { signal }).catch(() => signal.throwIfAborted());
    }
  }
}
