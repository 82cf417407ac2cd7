import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  applyMigrations,
  createDatabase,
  createMigration,
  dropDatabase,
  withDatabaseName,
} from "@catalog/db/migrations";
import { createDb, createOrg, recoveryPageQuery, WALK_INDEX_IN_ORDER, type Db } from "@catalog/db";
import { arrayContaining, stringMatching } from "@catalog/test-support/matchers";
import { insertSyncLogs } from "./sync-log-rows.js";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const base = process.env.DATABASE_URL!;
let url: string;
let db: Db;

beforeAll(async () => {
  // Its own database, so that it starts empty and can be migrated from nothing.
  url = withDatabaseName(base, `catalog_migrations_${Date.now().toString(36)}`);
  await createDatabase(url);
  await expect(applyMigrations(url)).resolves.toMatchObject({
    applied: arrayContaining([stringMatching(/_init$/)]),
  });
  db = createDb(url, { poolSize: 2 });
});
afterAll(async () => {
  await db.$disconnect();
  await dropDatabase(url);
});

test("a migrated database records every migration as prisma migrate deploy does, and a second run applies nothing", async () => {
  const dirs = (await readdir(join(repo, "prisma/migrations"), { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const rows = await db.$queryRaw<
    {
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }[]
  >`
    SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`;
  expect(rows.map((r) => r.migration_name)).toEqual(dirs);
  for (const row of rows) {
    const sql = await readFile(
      join(repo, "prisma/migrations", row.migration_name, "migration.sql"),
    );
    expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
    expect(row.finished_at).not.toBeNull();
  }
  await expect(applyMigrations(url)).resolves.toEqual({ applied: [] });
});

test("title and SKU search can use the trigram indexes", async () => {
  // Scans that read every row are off (on an empty table the list index, which includes title
  // and SKU, is as cheap as any), in one transaction so the EXPLAIN runs on the same connection.
  const plan = await db.$transaction(async (tx) => {
    for (const scan of ["seqscan", "indexscan", "indexonlyscan"])
      await tx.$executeRawUnsafe(`SET LOCAL enable_${scan} = off`);
    return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      "EXPLAIN SELECT id FROM products WHERE title ILIKE '%wool%' OR sku ILIKE '%wool%'",
    );
  });
  const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
  expect(text).toMatch(/products_title_trgm_idx/);
  expect(text).toMatch(/products_sku_trgm_idx/);
});

test("the search text is the title and SKU lowercased, kept by the database through every write", async () => {
  const org = await createOrg(db, "Search Text Org");
  const text = async () =>
    (
      await db.$queryRawUnsafe<{ search_text: string }[]>(
        "SELECT search_text FROM products WHERE org_id = $1::uuid",
        org.id,
      )
    ).map((r) => r.search_text);
  await db.$executeRawUnsafe(
    "INSERT INTO products (id, org_id, title, sku, updated_at) VALUES (gen_random_uuid(), $1::uuid, 'Wool ÄRMEL Scarf', 'SKU-Ab1', now())",
    org.id,
  );
  expect(await text()).toEqual(["wool ärmel scarf\u0001sku-ab1"]);
  await db.$executeRawUnsafe(
    "UPDATE products SET sku = NULL, title = 'Cap' WHERE org_id = $1::uuid",
    org.id,
  );
  expect(await text()).toEqual(["cap\u0001"]);
});

/**
 * Sync logs in this file's database, where sync_logs is never analyzed (autovacuum kept off it):
 * the planner goes on expecting as few rows of each status as when the table was empty.
 */
async function insertUnanalyzed(count: number, status: "queued" | "dead", leaseUntil: string) {
  await db.$executeRawUnsafe("ALTER TABLE sync_logs SET (autovacuum_enabled = false)");
  const org = await createOrg(db, `unanalyzed ${status} ${leaseUntil}`);
  const store = await db.destinationAccount.create({
    data: { orgId: org.id, channel: "standin", name: "store" },
  });
  const product = await db.product.create({ data: { orgId: org.id, title: "P" } });
  const at = { orgId: org.id, productId: product.id, destinationAccountId: store.id };
  await insertSyncLogs(db, at, count, status, leaseUntil);
}

/** The plan of a page's statement, with `WALK_INDEX_IN_ORDER` or without. */
const planOf = (page: { sql: string; params: unknown[] }, walk: boolean) =>
  db.$transaction(async (tx) => {
    if (walk) await tx.$queryRawUnsafe(WALK_INDEX_IN_ORDER);
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN ${page.sql}`,
      ...page.params,
    );
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });

// The planner expects few pending or dead rows (`insertUnanalyzed`): 20,000 of them make
// collecting every one and sorting (what a recovery page did, quadratic in the backlog) look
// cheaper than walking an index, unless the page forbids it. None of their leases has run out
// (pending ones run for another hour; a dead one's dead-letter job was confirmed): the page of
// the expired ones, the pass every interval, must not read them all to find none.
test.each([
  ["pending", "queued", "now() + interval '1 hour'"],
  ["dead", "dead", "NULL"],
] as const)(
  "a page of the %s publishes walks their indexes, even when the statistics say there are few",
  async (which, status, leaseUntil) => {
    await insertUnanalyzed(20_000, status, leaseUntil);
    const after = { id: "80000000-0000-4000-8000-000000000000", leaseUntil: new Date(0) };
    const all = recoveryPageQuery(which, { limit: 1000, after });
    expect(await planOf(all, false)).toMatch(/Sort/);
    const walked = await planOf(all, true);
    expect(walked).toMatch(new RegExp(`Index (Only )?Scan using sync_logs_${which}_id_idx`));
    expect(walked).not.toMatch(/Sort|Bitmap/);

    const expired = recoveryPageQuery(which, { expiredBefore: new Date(), limit: 1000, after });
    const walkedExpired = await planOf(expired, true);
    expect(walkedExpired).toMatch(
      new RegExp(`Index (Only )?Scan using sync_logs_${which}_lease_idx`),
    );
    expect(walkedExpired).not.toMatch(/Sort|Bitmap|Filter/);
  },
);

test("a schema change becomes one new migration, and no change writes nothing", async () => {
  const work = await mkdtemp(join(tmpdir(), "catalog-migrate-"));
  try {
    await cp(join(repo, "prisma/migrations"), join(work, "migrations"), { recursive: true });
    const schema = await readFile(join(repo, "prisma/schema.prisma"), "utf8");
    await writeFile(join(work, "schema.prisma"), schema);
    const options = {
      schemaPath: join(work, "schema.prisma"),
      migrationsDir: join(work, "migrations"),
      connectionString: base,
    };
    await expect(createMigration("nothing", options)).resolves.toEqual({ dir: null, sql: "" });

    await writeFile(
      join(work, "schema.prisma"),
      schema.replace(/(model Product \{\n)/, "$1  color String?\n"),
    );
    const created = await createMigration("add_color", options);
    expect(created.dir).toMatch(/\d{14}_add_color$/);
    expect(created.sql).toMatch(/ALTER TABLE "products" ADD COLUMN\s+"color" TEXT/);
    expect(await readFile(join(created.dir!, "migration.sql"), "utf8")).toBe(created.sql);
    await expect(createMigration("again", options)).resolves.toMatchObject({ dir: null });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test("an org admin made before the roles split becomes the org's owner, not the platform operator", async () => {
  const split = "roles_owner_and_operator";
  const earlier = await mkdtemp(join(tmpdir(), "catalog-before-roles-"));
  const oldUrl = withDatabaseName(base, `catalog_roles_${Date.now().toString(36)}`);
  await createDatabase(oldUrl);
  const old = createDb(oldUrl, { poolSize: 1 });
  try {
    // A database as it stood before the split: only the migrations older than it.
    const dirs = (await readdir(join(repo, "prisma/migrations"), { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const splitAt = dirs.findIndex((name) => name.endsWith(`_${split}`));
    expect(splitAt).toBeGreaterThan(0);
    for (const name of dirs.slice(0, splitAt))
      await cp(join(repo, "prisma/migrations", name), join(earlier, name), { recursive: true });
    await cp(
      join(repo, "prisma/migrations/migration_lock.toml"),
      join(earlier, "migration_lock.toml"),
    );
    await applyMigrations(oldUrl, earlier);
    // Raw SQL: the generated client knows only today's roles.
    const [org] = await old.$queryRaw<
      { id: string }[]
    >`INSERT INTO orgs (id, name) VALUES (gen_random_uuid(), 'Before the split') RETURNING id`;
    await old.$executeRaw`INSERT INTO users (id, org_id, email, password_hash, role) VALUES
      (gen_random_uuid(), ${org!.id}::uuid, 'boss@old.test', 'x', 'admin'), (gen_random_uuid(), ${org!.id}::uuid, 'staff@old.test', 'x', 'member')`;

    await expect(applyMigrations(oldUrl)).resolves.toEqual({ applied: dirs.slice(splitAt) });
    const users = await old.$queryRaw<
      { email: string; role: string }[]
    >`SELECT email, role::text AS role FROM users ORDER BY email`;
    expect(users).toEqual([
      { email: "boss@old.test", role: "owner" },
      { email: "staff@old.test", role: "member" },
    ]);
  } finally {
    await old.$disconnect();
    await dropDatabase(oldUrl);
    await rm(earlier, { recursive: true, force: true });
  }
});

test("staging tables a dead import left behind are dropped once six hours old, and a younger one is kept", async () => {
  const sql = await readFile(
    join(repo, "prisma/migrations/20261128000000_drop_import_stages/migration.sql"),
    "utf8",
  );
  const made = (secondsAgo: number) =>
    `import_stage_${Math.floor(Date.now() / 1000) - secondsAgo}_0a1b2c3d4e5f`;
  const [old, young] = [made(7 * 3600), made(60)];
  for (const table of [old, young]) await db.$executeRawUnsafe(`CREATE TABLE ${table} (batch int)`);
  await db.$executeRawUnsafe(sql);
  const left = await db.$queryRaw<{ relname: string }[]>`
    SELECT relname FROM pg_class WHERE relname LIKE 'import\_stage\_%' ORDER BY relname`;
  expect(left.map((r) => r.relname)).toEqual([young]);
});
