import type { Db } from "@catalog/db";
import { eventually } from "./eventually.js";

/**
 * A connection string naming its sessions `application`, so that a test can find them in
 * pg_stat_activity.
 */
export function withApplicationName(url: string, application: string): string {
  const named = new URL(url);
  named.searchParams.set("application_name", application);
  return named.toString();
}

export interface RowMeeting {
  /**
   * A client of its own (not the one the requests use): it holds the rows and watches the others
   * wait.
   */
  holder: Db;
  /** The application_name of the requests' sessions (see withApplicationName). */
  application: string;
  /** A statement's text names this table while it waits for the rows. */
  table: string;
  /** Locks the rows the requests are to meet on (`SELECT ... FOR UPDATE`), with its parameters. */
  lock: [sql: string, ...params: unknown[]];
}

/**
 * Makes concurrent requests meet on the same rows, in an order that is certain: a transaction of
 * the holder's locks the rows, the requests start one at a time, each once all the ones before it
 * wait for a lock in a statement on `table`, then the rows are released at once. Returns what the
 * requests resolved to, in their order.
 */
export async function meetOnRows<T>(
  meeting: RowMeeting,
  requests: (() => Promise<T>)[],
): Promise<T[]> {
  const {
    holder,
    application,
    table,
    lock: [sql, ...params],
  } = meeting;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  const isHeld = new Promise<void>((resolve) => {
    held = resolve;
  });
  const holding = holder.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(sql, ...params);
      held();
      await released;
    },
    { timeout: 60_000 },
  );
  const waiting = async () => {
    const [row] = await holder.$queryRawUnsafe<{ waiting: number }[]>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE $2",
      application,
      `%${table}%`,
    );
    return row?.waiting;
  };
  try {
    await isHeld;
    const running: Promise<T>[] = [];
    for (const request of requests) {
      running.push(request());
      await eventually(async () => {
        const now = await waiting();
        if (now !== running.length)
          throw new Error(`${now} of the requests wait on ${table}, not ${running.length}`);
      }, 20_000);
    }
    release();
    await holding;
    return await Promise.all(running);
  } finally {
    release();
    await holding.catch(() => undefined);
  }
}
