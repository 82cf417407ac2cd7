import { randomBytes } from "node:crypto";
import {
  createDb,
  createOrg,
  importInOneTransaction,
  importProducts,
  type Db,
  type ImportItem,
  type ImportOutcome,
} from "@catalog/db";
import {
  arrayContaining,
  objectContaining,
  stringContaining,
  stringMatching,
} from "@catalog/test-support/matchers";

// A persisted import writes its products and their history by COPY on its transaction's own
// connection (imports/import-writes.ts): what it stores, what a second import of the same file
// does, and that every write belongs to the one transaction.
let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 3 });
});
afterAll(() => db.$disconnect());

const actor = { type: "user" as const, id: null };
const newOrg = async () => (await createOrg(db, `stage ${randomBytes(4).toString("hex")}`)).id;
const options = { actor, source: "document" as const, persist: true, timeoutMs: 60_000 };

/**
 * A file's rows: products with text that COPY must escape (tabs, newlines, backslashes, quotes),
 * and image URLs with what an array literal must quote (commas, braces, quotes, backslashes).
 */
const fileItems = (tag: string, count: number): ImportItem[] =>
  Array.from({ length: count }, (_, i) => ({
    fields: {
      title: `Mug ${i}\twith a tab`,
      sku: `${tag}-${i}`,
      description: `Line one\nline two \\ "quoted" ${i}`,
      price: { amount: `${10 + i}.50`, currency: "EUR" },
      images: [`https://cdn.example/${tag}/${i}.jpg`, `https://cdn.example/${tag}/a,{b}"c\\d.jpg`],
      attributes: { colour: i % 2 === 0 ? "red" : "blue" },
      sourceUrl: `https://shop.example/${tag}/${i}`,
    },
    provenance: { title: { source: "document", method: "column" } },
  }));

/** Imports `items` in batches of `size` in one transaction, as a document import does. */
async function importInBatches(
  orgId: string,
  items: ImportItem[],
  size: number,
  afterBatch?: (outcomes: ImportOutcome[]) => Promise<void>,
): Promise<ImportOutcome[]> {
  return importInOneTransaction(db, orgId, options, async (importBatch) => {
    const all: ImportOutcome[] = [];
    for (let i = 0; i < items.length; i += size) {
      const outcomes = await importBatch(items.slice(i, i + size));
      all.push(...outcomes);
      await afterBatch?.(outcomes);
    }
    return all;
  });
}

test("a file imported in several batches stores every product as given, one history entry each, and importing it again changes nothing", async () => {
  const orgId = await newOrg();
  const items = fileItems("F", 25);
  const first = await importInBatches(orgId, items, 10);
  expect(first.map((o) => o.action)).toEqual(Array(25).fill("created"));

  const stored = await db.product.findMany({ where: { orgId }, orderBy: { sku: "asc" } });
  expect(stored).toHaveLength(25);
  const mug3 = stored.find((p) => p.sku === "F-3")!;
  expect(mug3).toMatchObject({
    title: "Mug 3\twith a tab",
    priceCurrency: "EUR",
    images: ["https://cdn.example/F/3.jpg", 'https://cdn.example/F/a,{b}"c\\d.jpg'],
    attributes: { colour: "blue" },
    sourceUrl: "https://shop.example/F/3",
    version: 1,
  });
  expect(String(mug3.priceAmount)).toBe("13.5");
  expect(mug3.description).toBe('<p>Line one<br />line two \\ "quoted" 3</p>');
  const history = await db.productHistory.findMany({ where: { orgId } });
  expect(history).toHaveLength(25);
  expect(history.find((h) => h.productId === mug3.id)!.changes).toMatchObject({
    title: { to: "Mug 3\twith a tab" },
  });

  const again = await importInBatches(orgId, items, 10);
  expect(again.every((o) => o.action === "updated" && Object.keys(o.changes).length === 0)).toBe(
    true,
  );
  expect(await db.productHistory.count({ where: { orgId } })).toBe(25);
  expect(await db.product.count({ where: { orgId, version: 1 } })).toBe(25);
});

test("an item matches the product with its SKU before the one with its source URL, and only that one changes", async () => {
  const orgId = await newOrg();
  const [bySku, byUrl] = await importProducts(
    db,
    orgId,
    [
      { fields: { title: "By SKU", sku: "S-1" }, provenance: {} },
      { fields: { title: "By URL", sourceUrl: "https://shop.example/u" }, provenance: {} },
    ],
    { actor, source: "document", persist: true },
  );
  const [outcome] = await importInBatches(
    orgId,
    [
      {
        fields: { title: "Renamed", sku: "S-1", sourceUrl: "https://shop.example/u" },
        provenance: {},
      },
    ],
    10,
  );
  expect(outcome).toMatchObject({ action: "updated", product: { id: bySku!.product.id } });
  const after = await db.product.findMany({ where: { orgId }, orderBy: { title: "asc" } });
  expect(after.map((p) => [p.id, p.title, p.version])).toEqual([
    [byUrl!.product.id, "By URL", 1],
    [bySku!.product.id, "Renamed", 2],
  ]);
});

test("a batch's writes belong to the import's transaction: its later statements see them, no one else does until the commit, and a failure further down stores nothing", async () => {
  const orgId = await newOrg();
  const items = fileItems("X", 30);
  const seen: { inside: number; outside: number; history: number }[] = [];
  await expect(
    importInOneTransaction(db, orgId, options, async (importBatch, tx) => {
      for (let i = 0; i < items.length; i += 10) {
        await importBatch(items.slice(i, i + 10));
        seen.push({
          inside: await tx!.product.count({ where: { orgId } }),
          outside: await db.product.count({ where: { orgId } }),
          history: await tx!.productHistory.count({ where: { orgId } }),
        });
      }
      throw new Error("the document is broken further down");
    }),
  ).rejects.toThrow("the document is broken further down");
  expect(seen).toEqual([
    { inside: 10, outside: 0, history: 10 },
    { inside: 20, outside: 0, history: 20 },
    { inside: 30, outside: 0, history: 30 },
  ]);
  expect(await db.product.count({ where: { orgId } })).toBe(0);
  expect(await db.productHistory.count({ where: { orgId } })).toBe(0);
});

test("changed products are updated once each across batches, with one history entry naming what changed, and a product created earlier in the same import is updated in place", async () => {
  const orgId = await newOrg();
  await importInBatches(orgId, fileItems("U", 12), 5);
  const changed = fileItems("U", 12).map((item, i) =>
    i % 3 === 0 ? { ...item, fields: { ...item.fields, title: `Renamed ${i}` } } : item,
  );
  // The last batch gives U-0 again as the first batch renamed it: nothing more changes.
  const outcomes = await importInBatches(orgId, [...changed, changed[0]!], 5);
  expect(outcomes.filter((o) => Object.keys(o.changes).length > 0).map((o) => o.changes)).toEqual(
    Array(4).fill({ title: objectContaining({ to: stringMatching(/^Renamed/) }) }),
  );
  const stored = await db.product.findMany({ where: { orgId }, orderBy: { sku: "asc" } });
  expect(stored.filter((p) => p.version === 2).map((p) => p.title)).toEqual(
    arrayContaining(["Renamed 0", "Renamed 3", "Renamed 6", "Renamed 9"]),
  );
  expect(stored.filter((p) => p.version !== 1)).toHaveLength(4);
  expect(stored.find((p) => p.sku === "U-3")!.images).toEqual(fileItems("U", 12)[3]!.fields.images);
  expect(await db.productHistory.count({ where: { orgId } })).toBe(12 + 4);

  const fresh = await newOrg();
  const twice = fileItems("T", 2);
  const [, , again] = await importInBatches(
    fresh,
    [...twice, { ...twice[0]!, fields: { ...twice[0]!.fields, title: "Second" } }],
    2,
  );
  expect(again).toMatchObject({ action: "updated", changes: { title: { to: "Second" } } });
  expect(await db.product.findMany({ where: { orgId: fresh }, orderBy: { sku: "asc" } })).toEqual([
    objectContaining({ title: "Second", version: 2 }),
    objectContaining({ version: 1 }),
  ]);
});

test("an import whose SKU another import created meanwhile is refused as a conflict, and stores nothing", async () => {
  const orgId = await newOrg();
  const items = fileItems(`c${randomBytes(3).toString("hex")}`, 3);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let firstWrote!: () => void;
  const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
  const first = importInOneTransaction(db, orgId, options, async (importBatch) => {
    await importBatch(items);
    firstWrote();
    await held;
  });
  await wrote;
  // The second import's writes wait on the first's uncommitted SKUs, then find them taken.
  const second = importInBatches(orgId, items.slice(1), 10);
  const settled = second.catch((error: unknown) => error);
  await waitForLockWait();
  release();
  await first;
  expect(await settled).toMatchObject({
    statusCode: 409,
    message: stringContaining("another import created a product with one of these SKUs"),
  });
  expect(await db.product.count({ where: { orgId } })).toBe(3);
  expect(await db.productHistory.count({ where: { orgId } })).toBe(3);
});

/** Until a session of this database waits on a lock (the second import's write). */
async function waitForLockWait(): Promise<void> {
  for (;;) {
    const [row] = await db.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
