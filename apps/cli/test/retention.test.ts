import { randomBytes } from "node:crypto";
import { createDb, createOrg, type Db } from "@catalog/db";
import { cli, SLOW } from "./run-cli.js";

let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
});
afterAll(() => db.$disconnect());

test(
  "an operator runs a retention pass by hand: it reports what it removed, and a bad setting is named",
  async () => {
    const org = await createOrg(db, `cli retention ${randomBytes(4).toString("hex")}`);
    const user = await db.user.create({
      data: {
        orgId: org.id,
        email: `r-${randomBytes(4).toString("hex")}@test.local`,
        passwordHash: "x",
      },
    });
    await db.session.create({
      data: {
        tokenHash: randomBytes(32).toString("hex"),
        userId: user.id,
        expiresAt: new Date(Date.now() - 3 * 86_400_000),
      },
    });

    const run = await cli(["retention", "--json"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const outcome = JSON.parse(run.stdout) as { ran: boolean; removed: { sessions: number } };
    expect(outcome.ran).toBe(true);
    expect(outcome.removed.sessions).toBeGreaterThanOrEqual(1);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);

    const bad = await cli(["retention"], undefined, {
      SYNC_LOG_SUCCESS_RETENTION_DAYS: "90",
      SYNC_LOG_FAILURE_RETENTION_DAYS: "30",
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/SYNC_LOG_FAILURE_RETENTION_DAYS \(30\) must be at least/);
  },
  SLOW,
);
