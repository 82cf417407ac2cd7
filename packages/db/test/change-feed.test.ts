import { randomBytes } from "node:crypto";
import {
  createDb,
  createOrg,
  importInOneTransaction,
  openChangeFeed,
  type Change,
  type Db,
  type ImportItem,
} from "@catalog/db";

// The products triggers announce each committed change to the catalog once per org, however many
// rows a statement or a transaction wrote (the `products_changed_per_statement` migration).
let db: Db;
let feed: { close(): Promise<void> };
const received: Change[] = [];
let markerSeen: (() => void) | null = null;

beforeAll(async () => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
  await new Promise<void>((connected) => {
    feed = openChangeFeed(process.env.DATABASE_URL!, {
      onChange(change) {
        if (change.kind === "sessions") markerSeen?.();
        else received.push(change);
      },
      onConnected: connected,
      onDisconnected() {},
    });
  });
});
afterAll(async () => {
  await feed.close();
  await db.$disconnect();
});

/** The product changes announced for what `act` commits: a marker notified after it arrives last. */
async function announcedBy(act: () => Promise<unknown>): Promise<string[]> {
  received.length = 0;
  await act().catch(() => {});
  const marker = new Promise<void>((seen) => (markerSeen = seen));
  await db.$executeRawUnsafe(`SELECT pg_notify('catalog_changes', 'sessions')`);
  await marker;
  return received.map((change) => (change.kind === "products" ? change.orgId : ""));
}

const actor = { type: "user" as const, id: null };
const options = { actor, source: "document" as const, persist: true, timeoutMs: 60_000 };
const newOrg = async () => (await createOrg(db, `feed ${randomBytes(4).toString("hex")}`)).id;
const items = (tag: string, count: number): ImportItem[] =>
  Array.from({ length: count }, (_, i) => ({
    fields: { title: `Lamp ${i}`, sku: `${tag}-${i}`, price: { amount: "9.90", currency: "EUR" } },
    provenance: {},
  }));

/** Imports `count` products in batches of 50 in one transaction, as a document import does. */
const importFor = (orgId: string, count: number, fail = false) =>
  importInOneTransaction(db, orgId, options, async (importBatch) => {
    const all = items(randomBytes(3).toString("hex"), count);
    for (let i = 0; i < all.length; i += 50) await importBatch(all.slice(i, i + 50));
    if (fail) throw new Error("the import fails after writing its batches");
  });

test("an import of many rows in several batches is announced once, for its org", async () => {
  const org = await newOrg();
  expect(await announcedBy(() => importFor(org, 200))).toEqual([org]);
});

test("updating and deleting the rows of two orgs in one statement announces each org once", async () => {
  const [a, b] = [await newOrg(), await newOrg()];
  await importFor(a, 60);
  await importFor(b, 60);
  const orgs = `'${a}'::uuid, '${b}'::uuid`;
  const updated = await announcedBy(() =>
    db.$executeRawUnsafe(`UPDATE products SET title = title || '!' WHERE org_id IN (${orgs})`),
  );
  expect(updated.sort()).toEqual([a, b].sort());
  const deleted = await announcedBy(() =>
    db.$executeRawUnsafe(`DELETE FROM products WHERE org_id IN (${orgs})`),
  );
  expect(deleted.sort()).toEqual([a, b].sort());
});

test("a statement that changes no row, or a rolled-back import, announces nothing", async () => {
  const org = await newOrg();
  expect(
    await announcedBy(() =>
      db.$executeRawUnsafe(`UPDATE products SET title = title WHERE org_id = '${org}'::uuid`),
    ),
  ).toEqual([]);
  expect(await announcedBy(() => importFor(org, 60, true))).toEqual([]);
});
