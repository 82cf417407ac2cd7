// The backup CronJob's own script (deploy/kubernetes/base/backup.yaml) dumps a database with data,
// and the restore that deploy/README.md gives brings it back into a scratch database.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { createDb, type Db } from "@catalog/db";
import { createDatabase, withDatabaseName } from "@catalog/db/migrations";
import { createTestDatabase, createTestOrg, dropTestDatabase } from "@catalog/testing";
import { repoRoot } from "./built-processes.js";

type CronJob = {
  kind: string;
  spec: {
    jobTemplate: {
      spec: {
        template: {
          spec: { containers: { command: string[]; env: { name: string; value?: string }[] }[] };
        };
      };
    };
  };
};
const [container] = parseAllDocuments(
  readFileSync(`${repoRoot}deploy/kubernetes/base/backup.yaml`, "utf8"),
)
  .map((doc) => doc.toJSON() as CronJob)
  .find((o) => o.kind === "CronJob")!.spec.jobTemplate.spec.template.spec.containers;

const tools = spawnSync("pg_dump", ["--version"]).status === 0;
const maybe = tools ? test : test.skip;

let source: string;
let scratch: string;
let db: Db;
const dir = mkdtempSync(join(tmpdir(), "catalog-backups-"));
beforeAll(async () => {
  source = await createTestDatabase(process.env.DATABASE_URL!, "backup");
  scratch = withDatabaseName(source, `${new URL(source).pathname.slice(1)}_restore`);
  db = createDb(source, { poolSize: 2 });
}, 60_000);
afterAll(async () => {
  await db.$disconnect();
  for (const url of [source, scratch]) await dropTestDatabase(url).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

maybe(
  "the CronJob's pg_dump is restored with pg_restore into a scratch database, data and all",
  async () => {
    const { org } = await createTestOrg(db, "backed-up");
    const [shell, flag, script] = container!.command;
    const retention = container!.env.find((e) => e.name === "BACKUP_RETENTION_DAYS")!.value!;
    const out = execFileSync(shell!, [flag!, script!.replaceAll("/backups", dir)], {
      env: { PATH: process.env.PATH, DATABASE_URL: source, BACKUP_RETENTION_DAYS: retention },
      encoding: "utf8",
    });
    const [dump] = readdirSync(dir);
    expect(dump).toMatch(/^catalog-\d{8}T\d{6}Z\.dump$/);
    expect(out).toContain(`wrote ${dir}/${dump}`);

    // Restore as deploy/README.md says: into an empty database, then check it.
    await createDatabase(scratch);
    execFileSync("pg_restore", ["--no-owner", "--exit-on-error", "-d", scratch, join(dir, dump!)]);
    const restored = createDb(scratch, { poolSize: 1 });
    try {
      const orgs = await restored.$queryRaw<{ name: string; users: bigint }[]>`
        SELECT o.name, (SELECT count(*) FROM users u WHERE u.org_id = o.id) AS users
          FROM orgs o WHERE o.id = ${org.id}::uuid`;
      expect(orgs.map((o) => [o.name, Number(o.users)])).toEqual([
        [expect.stringContaining("backed-up"), 3],
      ]);
      const migrations = await restored.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL`;
      expect(Number(migrations[0]!.n)).toBeGreaterThan(10);
    } finally {
      await restored.$disconnect();
    }
  },
  60_000,
);
