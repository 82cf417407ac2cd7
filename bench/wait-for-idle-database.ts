import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/**
 * When autocannon stops it drops its sockets, but the gateway still finishes the requests it had
 * queued (seconds of work when the database is the bottleneck). Waiting for the bench database's
 * backends to go idle keeps that leftover work out of the next measured run.
 */
export async function waitForIdleDatabase(databaseUrl: string, timeoutMs = 15_000): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND pid <> pg_backend_pid()",
        [name],
      );
      if (Number(rows[0]?.n) === 0) break;
      await sleep(100);
    }
  } finally {
    await client.end();
  }
  // The gateway still serialises the last responses after their queries end.
  await sleep(250);
}
