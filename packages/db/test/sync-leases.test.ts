import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, createOrg, extendLeases, type Db } from "@catalog/db";
import { insertSyncLog } from "./sync-log-rows.js";

// Recovery pushes the leases of the publishes it enqueued again forward, a thousand at a time,
// while the workers lock the same sync logs in their own batch statements: it must never wait for
// a row a worker holds (two multi-row statements waiting on each other's rows deadlock).
let db: Db;
let holder: pg.Client;
beforeAll(async () => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
  holder = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await holder.connect();
});
afterAll(async () => {
  await holder.end();
  await db.$disconnect();
});

async function syncLogs(statuses: ("queued" | "running" | "succeeded")[]): Promise<string[]> {
  const org = await createOrg(db, `leases ${randomBytes(4).toString("hex")}`);
  const store = await db.destinationAccount.create({
    data: { orgId: org.id, channel: "standin", name: "store" },
  });
  const ids: string[] = [];
  for (const [i, status] of statuses.entries()) {
    const product = await db.product.create({ data: { orgId: org.id, title: `P${i}` } });
    ids.push(
      await insertSyncLog(db, {
        orgId: org.id,
        productId: product.id,
        destinationAccountId: store.id,
        status,
      }),
    );
  }
  return ids;
}

const leases = async (ids: string[]) => {
  const rows = await db.syncLog.findMany({
    where: { id: { in: ids } },
    select: { id: true, leaseUntil: true },
  });
  return ids.map((id) => rows.find((r) => r.id === id)!.leaseUntil?.getTime() ?? null);
};

test("extending leases skips the rows a worker holds instead of waiting for them, and extends the rest", async () => {
  const [held, queued, running, done] = await syncLogs([
    "queued",
    "queued",
    "running",
    "succeeded",
  ]);
  await holder.query("BEGIN");
  try {
    await holder.query("SELECT id FROM sync_logs WHERE id = $1 FOR UPDATE", [held]);
    const before = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("extendLeases waited for a row another transaction holds")),
        10_000,
      );
    });
    await Promise.race([extendLeases(db, [held!, queued!, running!, done!], 60_000), waited]);
    clearTimeout(timer);
    const after = Date.now();
    const [heldLease, queuedLease, runningLease, doneLease] = await leases([
      held!,
      queued!,
      running!,
      done!,
    ]);
    expect(heldLease).toBeNull();
    for (const lease of [queuedLease, runningLease]) {
      expect(lease).toBeGreaterThanOrEqual(before + 60_000 - 1);
      expect(lease).toBeLessThanOrEqual(after + 60_000);
    }
    expect(doneLease).toBeNull();
  } finally {
    await holder.query("ROLLBACK");
  }
});
