import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, createDatabase, createMigration, dropDatabase, withDatabaseName } from "@catalog/db/migrations";
import { createDb, type Db } from "@catalog/db";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const base = process.env.DATABASE_URL!;
let url: string;
let db: Db;

beforeAll(async () => {
  // Its own database, so that it starts empty and can be migrated from nothing.
  url = withDatabaseName(base, `catalog_migrations_${Date.now().toString(36)}`);
  await createDatabase(url);
  await expect(applyMigrations(url)).resolves.toMatchObject({ applied: expect.arrayContaining([expect.stringMatching(/_init$/)]) });
  db = createDb(url, { poolSize: 2 });
});
afterAll(async () => {
  await db.$disconnect();
  await dropDatabase(url);
});

test("a migrated database records every migration as prisma migrate deploy does, and a second run applies nothing", async () => {
  const dirs = (await readdir(join(repo, "prisma/migrations"), { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const rows = await db.$queryRaw<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }[]>`
    SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`;
  expect(rows.map((r) => r.migration_name)).toEqual(dirs);
  for (const row of rows) {
    const sql = await readFile(join(repo, "prisma/migrations", row.migration_name, "migration.sql"));
    expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
    expect(row.finished_at).not.toBeNull();
  }
  await expect(applyMigrations(url)).resolves.toEqual({ applied: [] });
});

test("title and SKU search can use the trigram indexes", async () => {
  await db.$executeRawUnsafe("SET enable_seqscan = off");
  const plan = await db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
    "EXPLAIN SELECT id FROM products WHERE title ILIKE '%wool%' OR sku ILIKE '%wool%'",
  );
  const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
  expect(text).toMatch(/products_title_trgm_idx/);
  expect(text).toMatch(/products_sku_trgm_idx/);
});

test("a schema change becomes one new migration, and no change writes nothing", async () => {
  const work = await mkdtemp(join(tmpdir(), "catalog-migrate-"));
  try {
    await cp(join(repo, "prisma/migrations"), join(work, "migrations"), { recursive: true });
    const schema = await readFile(join(repo, "prisma/schema.prisma"), "utf8");
    await writeFile(join(work, "schema.prisma"), schema);
    const options = { schemaPath: join(work, "schema.prisma"), migrationsDir: join(work, "migrations"), connectionString: base };
    await expect(createMigration("nothing", options)).resolves.toEqual({ dir: null, sql: "" });

    await writeFile(join(work, "schema.prisma"), schema.replace(/(model Product \{\n)/, "$1  color String?\n"));
    const created = await createMigration("add_color", options);
    expect(created.dir).toMatch(/\d{14}_add_color$/);
    expect(created.sql).toMatch(/ALTER TABLE "products" ADD COLUMN\s+"color" TEXT/);
    expect(await readFile(join(created.dir!, "migration.sql"), "utf8")).toBe(created.sql);
    await expect(createMigration("again", options)).resolves.toMatchObject({ dir: null });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
