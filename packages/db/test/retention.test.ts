import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { ServiceError, createDb, createOrg, listImportRows, type Db } from "@catalog/db";
import { retentionPolicyOf, runRetentionPass, type RetentionPolicy } from "@catalog/db/retention";
import { insertSyncLog } from "./sync-log-rows.js";

// The pass covers the whole database (every test file's orgs): everything these tests expect it to
// remove is backdated by days, which no other test does, and the expectations look at this file's
// rows only.
let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
});
afterAll(() => db.$disconnect());

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const policy = (changes: Partial<RetentionPolicy> = {}): RetentionPolicy => ({
  ...retentionPolicyOf({
    SYNC_LOG_SUCCESS_RETENTION_DAYS: 30,
    SYNC_LOG_FAILURE_RETENTION_DAYS: 90,
    IMPORT_ROWS_RETENTION_DAYS: 3,
    SESSION_RETENTION_DAYS: 1,
    RETENTION_BATCH_SIZE: 100,
    RETENTION_BATCH_PAUSE_MS: 0,
  }),
  ...changes,
});
const pass = async (changes: Partial<RetentionPolicy> = {}) => {
  const outcome = await runRetentionPass(process.env.DATABASE_URL!, policy(changes));
  if (!outcome.ran) throw new Error(`the pass did not run: ${outcome.reason}`);
  return outcome;
};

async function storeWithListings() {
  const org = await createOrg(db, `retention ${randomBytes(4).toString("hex")}`);
  const store = await db.destinationAccount.create({
    data: { orgId: org.id, channel: "standin", name: "store" },
  });
  const product = async (title: string) => {
    const p = await db.product.create({ data: { orgId: org.id, title } });
    await db.listing.create({
      data: {
        orgId: org.id,
        productId: p.id,
        destinationAccountId: store.id,
        status: "published",
      },
    });
    return p.id;
  };
  return { orgId: org.id, storeId: store.id, product };
}

type Status = "queued" | "running" | "succeeded" | "failed" | "dead";

async function syncLog(
  at: { orgId: string; storeId: string },
  productId: string,
  status: Status,
  ageDays: number,
  runId: string | null = null,
): Promise<string> {
  return insertSyncLog(db, {
    orgId: at.orgId,
    productId,
    destinationAccountId: at.storeId,
    status,
    createdAt: daysAgo(ageDays),
    runId,
  });
}

const remaining = async (ids: string[]) =>
  new Set(
    (await db.syncLog.findMany({ where: { id: { in: ids } }, select: { id: true } })).map(
      (r) => r.id,
    ),
  );

test("old successes go after 30 days, failures only after 90, and each listing keeps its latest outcome", async () => {
  const at = await storeWithListings();
  const a = await at.product("a");
  const oldSuccess = await syncLog(at, a, "succeeded", 40);
  const recentSuccess = await syncLog(at, a, "succeeded", 20);
  const failed60 = await syncLog(at, a, "failed", 60);
  const failed100 = await syncLog(at, a, "failed", 100);
  await syncLog(at, a, "succeeded", 1);
  // Its only sync log is old: the listing's last outcome stays.
  const b = await at.product("b");
  const onlyOne = await syncLog(at, b, "succeeded", 200);

  await pass();

  const left = await remaining([oldSuccess, recentSuccess, failed60, failed100, onlyOne]);
  expect(left.has(oldSuccess)).toBe(false);
  expect(left.has(failed100)).toBe(false);
  expect(left.has(recentSuccess)).toBe(true);
  expect(left.has(failed60)).toBe(true);
  expect(left.has(onlyOne)).toBe(true);
});

test("a sync log still to do, or dead (the dead-letter queue), is never removed however old", async () => {
  const at = await storeWithListings();
  const a = await at.product("a");
  const ids = [
    await syncLog(at, a, "queued", 400),
    await syncLog(at, a, "running", 400),
    await syncLog(at, a, "dead", 400),
  ];
  await syncLog(at, a, "succeeded", 1);

  await pass();

  expect((await remaining(ids)).size).toBe(3);
});

test("a publish run's cell goes as a whole: a newer success is not removed while an older failure of the cell stays", async () => {
  const at = await storeWithListings();
  const a = await at.product("a");
  const run = await db.publishRun.create({
    data: { orgId: at.orgId, actorType: "system", products: [], destinationIds: [at.storeId] },
  });
  // The cell failed, was retried and succeeded 40 days ago; later updates came outside the run.
  const failed = await syncLog(at, a, "failed", 41, run.id);
  const retried = await syncLog(at, a, "succeeded", 40, run.id);
  await syncLog(at, a, "succeeded", 1);

  await pass();
  // The newest attempt is the success, past 30 days: the cell goes whole, failure included.
  expect((await remaining([failed, retried])).size).toBe(0);

  // A cell whose newest attempt failed 40 days ago keeps every attempt for 90 days.
  const b = await at.product("b");
  const success = await syncLog(at, b, "succeeded", 41, run.id);
  const lastFailed = await syncLog(at, b, "failed", 40, run.id);
  await syncLog(at, b, "succeeded", 1);
  await pass();
  expect((await remaining([success, lastFailed])).size).toBe(2);
});

test("sessions that expired or were revoked more than a day ago are removed; live and just-ended ones stay", async () => {
  const org = await createOrg(db, `retention ${randomBytes(4).toString("hex")}`);
  const user = await db.user.create({
    data: { orgId: org.id, email: `r-${randomUUID()}@test.local`, passwordHash: "x" },
  });
  const session = (fields: { expiresAt: Date; revokedAt?: Date }) =>
    db.session.create({
      data: { tokenHash: randomBytes(32).toString("hex"), userId: user.id, ...fields },
    });
  const expired = await session({ expiresAt: daysAgo(2) });
  const revoked = await session({ expiresAt: daysAgo(-5), revokedAt: daysAgo(2) });
  const justExpired = await session({ expiresAt: daysAgo(0.1) });
  const live = await session({ expiresAt: daysAgo(-5) });

  const outcome = await pass();

  const left = await db.session.findMany({ where: { userId: user.id }, select: { id: true } });
  expect(left.map((s) => s.id).sort()).toEqual([justExpired.id, live.id].sort());
  expect(outcome.removed.sessions).toBeGreaterThanOrEqual(2);
  void expired;
  void revoked;
});

async function importWithRows(
  orgId: string,
  fields: { endedDaysAgo: number; expiresDaysAgo?: number },
) {
  const created = await db.import.create({
    data: {
      orgId,
      kind: "document",
      name: "spring.csv",
      status: "stored",
      countCreate: 3,
      result: { created: 3, updated: 0, unchanged: 0, skipped: 0 },
      expiresAt: daysAgo(fields.expiresDaysAgo ?? -7),
      updatedAt: daysAgo(fields.endedDaysAgo),
    },
  });
  await db.importRow.createMany({
    data: [1, 2, 3].map((n) => ({ importId: created.id, seq: n, row: n + 1, outcome: "create" })),
  });
  // @updatedAt sets now on create: put the end back in time.
  await db.$executeRaw`UPDATE imports SET updated_at = ${daysAgo(fields.endedDaysAgo)} WHERE id = ${created.id}::uuid`;
  return created.id;
}

test("an import's rows go 3 days after it ended; the import keeps its counts and its rows say they were removed by retention", async () => {
  const org = await createOrg(db, `retention ${randomBytes(4).toString("hex")}`);
  const old = await importWithRows(org.id, { endedDaysAgo: 4 });
  const recent = await importWithRows(org.id, { endedDaysAgo: 1 });
  const expired = await importWithRows(org.id, { endedDaysAgo: 8, expiresDaysAgo: 1 });

  await pass();

  expect(await db.importRow.count({ where: { importId: old } })).toBe(0);
  const kept = await db.import.findUniqueOrThrow({ where: { id: old } });
  expect(kept.countCreate).toBe(3);
  expect(kept.rowsRemovedAt).not.toBeNull();
  const refused = (await listImportRows(db, org.id, old, { page: 1, pageSize: 25 }).catch(
    (error: unknown) => error,
  )) as ServiceError;
  expect(refused).toBeInstanceOf(ServiceError);
  expect(refused.statusCode).toBe(410);
  expect(refused.message).toMatch(/removed by retention/);
  const listed = await listImportRows(db, org.id, recent, { page: 1, pageSize: 25 });
  expect(listed.total).toBe(3);
  expect(await db.import.count({ where: { id: expired } })).toBe(0);
  expect(await db.importRow.count({ where: { importId: expired } })).toBe(0);
});

test("product history is kept unless a maximum age is set, then older entries go", async () => {
  const org = await createOrg(db, `retention ${randomBytes(4).toString("hex")}`);
  const productId = randomUUID();
  const entry = (ageDays: number) =>
    db.productHistory.create({
      data: {
        orgId: org.id,
        productId,
        actorType: "system",
        action: "updated",
        at: daysAgo(ageDays),
      },
    });
  const old = await entry(400);
  const recent = await entry(10);

  await pass();
  expect(await db.productHistory.count({ where: { productId } })).toBe(2);

  await pass({ productHistoryDays: 365 });
  const left = await db.productHistory.findMany({ where: { productId }, select: { id: true } });
  expect(left.map((e) => e.id)).toEqual([recent.id]);
  void old;
});

test("while one pass holds the lock, another does not run", async () => {
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await holder.connect();
  try {
    await holder.query(`SELECT pg_advisory_lock(hashtextextended('catalog.retention', 0))`);
    const outcome = await runRetentionPass(process.env.DATABASE_URL!, policy());
    expect(outcome).toEqual({ ran: false, reason: "another retention pass is running" });
    await holder.query(`SELECT pg_advisory_unlock(hashtextextended('catalog.retention', 0))`);
    expect((await runRetentionPass(process.env.DATABASE_URL!, policy())).ran).toBe(true);
  } finally {
    await holder.end();
  }
});
