import { createDb, type Db } from "@catalog/db";
import { userWithExpiredSession } from "@catalog/testing";
import { cli, SLOW } from "./run-cli.js";

let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
});
afterAll(() => db.$disconnect());

test(
  "an operator runs a retention pass by hand: it reports what it removed, and a bad setting is named",
  async () => {
    const userId = await userWithExpiredSession(db, "cli retention", 3);

    const run = await cli(["retention", "--json"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const outcome = JSON.parse(run.stdout) as { ran: boolean; removed: { sessions: number } };
    expect(outcome.ran).toBe(true);
    expect(outcome.removed.sessions).toBeGreaterThanOrEqual(1);
    expect(await db.session.count({ where: { userId } })).toBe(0);

    const bad = await cli(["retention"], undefined, {
      SYNC_LOG_SUCCESS_RETENTION_DAYS: "90",
      SYNC_LOG_FAILURE_RETENTION_DAYS: "30",
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/SYNC_LOG_FAILURE_RETENTION_DAYS \(30\) must be at least/);
  },
  SLOW,
);
