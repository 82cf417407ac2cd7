// Expand, then contract (deploy/README.md): while a release rolls out, pods of the previous
// release still run on the new schema, so a migration newer than the last release
// (deploy/released-migration.txt) may add, never drop, rename or retype what they read. The
// contract step comes in a later release and says so with a "-- contract: ..." line.
import { readdirSync, readFileSync } from "node:fs";
import { CONTRACT_MARKER, destructiveStatements } from "./destructive-sql.js";
import { repoRoot } from "./built-processes.js";

const dir = `${repoRoot}prisma/migrations`;
const migrations = readdirSync(dir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const released = readFileSync(`${repoRoot}deploy/released-migration.txt`, "utf8").trim();

test("deploy/released-migration.txt names a migration of this tree", () => {
  expect(migrations).toContain(released);
});

test("no migration newer than the last release drops, renames or retypes what that release reads", () => {
  const unreleased = migrations.filter((name) => name > released);
  const breaking = unreleased.flatMap((name) => {
    const sql = readFileSync(`${dir}/${name}/migration.sql`, "utf8");
    return CONTRACT_MARKER.test(sql)
      ? []
      : destructiveStatements(sql).map((found) => `${name} ${found}`);
  });
  expect(breaking).toEqual([]);
});

test("the check finds what Prisma writes for a drop, a rename and a type change, and passes an expand", () => {
  const contract = `-- the old name goes
ALTER TABLE "products" DROP COLUMN "legacy_sku",
ADD COLUMN "sku2" TEXT;
ALTER TABLE "products" RENAME COLUMN "title" TO "name";
ALTER TABLE "imports" RENAME TO "import_runs";
ALTER TABLE "products" ALTER COLUMN "price" SET DATA TYPE BIGINT;
DROP TABLE "sessions";
ALTER TYPE "Role" RENAME VALUE 'member' TO 'user';`;
  expect(destructiveStatements(contract).map((found) => found.split(":")[0])).toEqual([
    "drops a column",
    "renames a column",
    "renames a table",
    "changes a column's type",
    "drops a table",
    "renames a type or an enum value",
  ]);
  const expand = `-- AlterTable: DROP COLUMN in a comment is no drop
ALTER TABLE "products" ADD COLUMN "name" TEXT;
CREATE INDEX "products_name_idx" ON "products"("name");
DROP INDEX "products_title_idx";
DROP TRIGGER products_changed ON "products";
CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DROP TABLE x; END $$;`;
  expect(destructiveStatements(expand)).toEqual([]);
});
