import { randomBytes, randomUUID } from "node:crypto";
import {
  createDb,
  createOrg,
  importInOneTransaction,
  openChangeFeed,
  type Db,
  type ImportItem,
} from "@catalog/db";

// The products triggers announce each committed change to the catalog once per org, however many
// rows a statement or a transaction wrote (the `products_changed_per_statement` migration).
// Other test files write products in the same database meanwhile: only the orgs a test made count,
// and each call waits for a marker of its own, notified after what it counts.
let db: Db;
let feed: { close(): Promise<void> };
const received: string[] = [];
let marker: { id: string; seen: () => void } | null = null;

beforeAll(async () => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
  await new Promise<void>((connected) => {
    feed = openChangeFeed(process.env.DATABASE_URL!, {
      onChange(change) {
        if (change.kind !== "products") return;
        if (change.orgId === marker?.id) marker.seen();
        else received.push(change.orgId);
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

/** Resolves once every announcement committed before it has arrived. */
async function caughtUp(): Promise<void> {
  const id = randomUUID();
  const seen = new Promise<void>((resolve) => (marker = { id, seen: resolve }));
  await db.$executeRawUnsafe(`SELECT pg_notify('catalog_changes', $1)`, `products:${id}`);
  await seen;
}

/** The orgs among `orgs` announced for what `act` commits, once each time they are announced. */
async function announcedBy(orgs: string[], act: () => Promise<unknown>): Promise<string[]> {
  await caughtUp();
  received.length = 0;
  await act().catch(() => {});
  await caughtUp();
  return received.filter((orgId) => orgs.includes(orgId));
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
  expect(await announcedBy([org], () => importFor(org, 200))).toEqual([org]);
});

test("updating and deleting the rows of two orgs in one statement announces each org once", async () => {
  const [a, b] = [await newOrg(), await newOrg()];
  await importFor(a, 60);
  await importFor(b, 60);
  const orgs = `'${a}'::uuid, '${b}'::uuid`;
  const updated = await announcedBy([a, b], () =>
    db.$executeRawUnsafe(`UPDATE products SET title = title || '!' WHERE org_id IN (${orgs})`),
  );
  expect(updated.sort()).toEqual([a, b].sort());
  const deleted = await announcedBy([a, b], () =>
    db.$executeRawUnsafe(`DELETE FROM products WHERE org_id IN (${orgs})`),
  );
  expect(deleted.sort()).toEqual([a, b].sort());
});

test("a statement that changes no row, or a rolled-back import, announces nothing", async () => {
  const org = await newOrg();
  expect(
    await announcedBy([org], () =>
      db.$executeRawUnsafe(`UPDATE products SET title = title WHERE org_id = '${org}'::uuid`),
    ),
  ).toEqual([]);
  expect(await announcedBy([org], () => importFor(org, 60, true))).toEqual([]);
});
