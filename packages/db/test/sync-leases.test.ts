import { randomBytes } from "node:crypto";
import pg from "pg";
import {
  createDb,
  createOrg,
  deadLettersOwed,
  extendLeases,
  pendingPublishes,
  type Db,
  type PageCursor,
  type SyncStatus,
} from "@catalog/db";
import { insertSyncLog, insertSyncLogs } from "./sync-log-rows.js";

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

test.each([
  ["publishes still to do", pendingPublishes, "queued", "running"],
  ["dead publishes", deadLettersOwed, "dead", "dead"],
] as const)(
  "the %s whose lease ran out come page by page, each once, though a thousand share one lease",
  async (_what, read, expiring, other) => {
    // Recovery gives each page it enqueues one lease, so a thousand rows can share one. Other test
    // files' publishes may be in the same database: only this org's are counted.
    const org = await createOrg(db, `lease pages ${randomBytes(4).toString("hex")}`);
    const store = await db.destinationAccount.create({
      data: { orgId: org.id, channel: "standin", name: "store" },
    });
    const product = await db.product.create({ data: { orgId: org.id, title: "P" } });
    const at = { orgId: org.id, productId: product.id, destinationAccountId: store.id };
    const insert = (count: number, status: SyncStatus, lease: string) =>
      insertSyncLogs(db, at, count, status, lease);
    const expired = await insert(2_500, expiring, "now() - interval '1 minute'");
    // Still leased, or (a dead one) its dead-letter job confirmed.
    const others = await insert(
      300,
      other,
      other === "dead" ? "NULL" : "now() + interval '1 hour'",
    );
    await insert(200, "succeeded", "now() - interval '1 minute'");

    const walk = async (expiredBefore?: Date) => {
      const seen: string[] = [];
      for (let after: PageCursor | undefined; ;) {
        const page = await read(db, { expiredBefore, limit: 1_000, after });
        seen.push(...page.rows.filter((p) => p.orgId === org.id).map((p) => p.syncLogId));
        after = page.last;
        if (page.rows.length < 1_000) return seen;
      }
    };
    const sorted = (ids: string[]) => [...ids].sort();
    expect(sorted(await walk(new Date()))).toEqual(sorted(expired));
    expect(sorted(await walk())).toEqual(sorted([...expired, ...others]));
  },
);
