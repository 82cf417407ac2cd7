import { randomBytes } from "node:crypto";
import { createDb, createOrg, isTransactionConflict, retryOnConflict, type Db } from "@catalog/db";

let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 4 });
});
afterAll(() => db.$disconnect());

const newProducts = async () => {
  const orgId = (await createOrg(db, `retry ${randomBytes(4).toString("hex")}`)).id;
  return [
    await db.product.create({ data: { orgId, title: "A" } }),
    await db.product.create({ data: { orgId, title: "B" } }),
  ];
};

/**
 * Two transactions that deadlock for certain: each locks its first product, waits until the other
 * has its own, then asks for the other's. `raw` locks with SQL, else with Prisma's update.
 */
function deadlocking(first: string, second: string, raw: boolean) {
  let arrived = 0;
  let bothHold!: () => void;
  const gate = new Promise<void>((resolve) => {
    bothHold = resolve;
  });
  const runs = { count: 0 };
  const lock = (tx: Parameters<Parameters<Db["$transaction"]>[0]>[0], id: string) =>
    raw
      ? tx.$executeRaw`UPDATE products SET title = title WHERE id = ${id}::uuid`
      : tx.product.update({ where: { id }, data: { title: "locked" } });
  const transaction = (a: string, b: string) => () =>
    db.$transaction(async (tx) => {
      runs.count++;
      await lock(tx, a);
      if (++arrived === 2) bothHold();
      await gate;
      await lock(tx, b);
    });
  return { runs, one: transaction(first, second), other: transaction(second, first) };
}

test.each([
  ["Prisma's queries (P2034)", false],
  ["raw SQL (P2010)", true],
])("a deadlock in %s is told apart as a conflict", async (_what, raw) => {
  const [a, b] = await newProducts();
  const { one, other } = deadlocking(a!.id, b!.id, raw);
  const outcomes = await Promise.allSettled([one(), other()]);
  const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
  expect(failed).toHaveLength(1);
  expect(isTransactionConflict(failed[0]!.reason)).toBe(true);
  expect(isTransactionConflict(new Error("deadlock detected"))).toBe(false);
});

test("retryOnConflict runs the transaction PostgreSQL aborted again, and both complete", async () => {
  const [a, b] = await newProducts();
  const { runs, one, other } = deadlocking(a!.id, b!.id, true);
  await expect(Promise.all([retryOnConflict(one), retryOnConflict(other)])).resolves.toEqual([
    undefined,
    undefined,
  ]);
  expect(runs.count).toBe(3);
});

test("retryOnConflict throws any other error at once, and the last conflict after its attempts", async () => {
  let calls = 0;
  await expect(
    retryOnConflict(async () => {
      calls++;
      throw new Error("not a conflict");
    }),
  ).rejects.toThrow("not a conflict");
  expect(calls).toBe(1);
  const conflict = Object.assign(new Error("deadlock"), { code: "P2034" });
  calls = 0;
  await expect(
    retryOnConflict(async () => {
      calls++;
      throw conflict;
    }, 2),
  ).rejects.toBe(conflict);
  expect(calls).toBe(2);
});
