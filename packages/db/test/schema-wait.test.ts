// Pods of a release wait for that release's migration Job (issue 33, item 3): `cli.js wait`
// returns once every migration the image carries is applied, logging what it waits for.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  applyMigrations,
  createDatabase,
  dropDatabase,
  pendingMigrations,
  waitForSchema,
  withDatabaseName,
} from "@catalog/db/migrations";

const migrations = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));
const url = withDatabaseName(process.env.DATABASE_URL!, `catalog_wait_${Date.now().toString(36)}`);
let previousRelease: string;

beforeAll(async () => {
  await createDatabase(url);
  // The previous release: every migration but the newest.
  previousRelease = await mkdtemp(join(tmpdir(), "catalog-previous-release-"));
  const names = (await readdir(migrations, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  for (const name of names.slice(0, -1))
    await cp(join(migrations, name), join(previousRelease, name), { recursive: true });
  await cp(join(migrations, "migration_lock.toml"), join(previousRelease, "migration_lock.toml"));
}, 60_000);
afterAll(async () => {
  await rm(previousRelease, { recursive: true, force: true });
  await dropDatabase(url);
});

test("a pod of the new release waits, saying for what, until the release's migrations are applied", async () => {
  const newest = (await pendingMigrations(url)).at(-1)!;
  await applyMigrations(url, previousRelease);
  expect(await pendingMigrations(url)).toEqual([newest]);

  const lines: string[] = [];
  let ready = false;
  const waiting = waitForSchema(url, { log: (line: string) => lines.push(line), everyMs: 50 }).then(
    () => (ready = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(ready).toBe(false);
  expect(lines[0]).toBe(
    `Waiting for the database schema: 1 migration not applied yet (newest: ${newest}); run this release's migration Job`,
  );

  // The release's Job runs.
  await applyMigrations(url);
  await waiting;
  expect(lines.at(-1)).toBe("Schema ready: every migration of this release is applied");
  expect(await pendingMigrations(url)).toEqual([]);
}, 60_000);

test("a pod of the previous release starts at once on the newer schema (expand, then contract)", async () => {
  await expect(pendingMigrations(url, previousRelease)).resolves.toEqual([]);
});
