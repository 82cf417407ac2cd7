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

// A persisted document import writes through a staging table fed by COPY (imports/import-stage.ts):
// what it stores, what a second import of the same file does, and that the table goes on every path.
let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 3 });
});
afterAll(() => db.$disconnect());

const actor = { type: "user" as const, id: null };
const newOrg = async () => (await createOrg(db, `stage ${randomBytes(4).toString("hex")}`)).id;
const options = { actor, source: "document" as const, persist: true, timeoutMs: 60_000 };

/** A file's rows: products with text that COPY must escape (tabs, newlines, backslashes, quotes). */
const fileItems = (tag: string, count: number): ImportItem[] =>
  Array.from({ length: count }, (_, i) => ({
    fields: {
      title: `Mug ${i}\twith a tab`,
      sku: `${tag}-${i}`,
      description: `Line one\nline two \\ "quoted" ${i}`,
      price: { amount: `${10 + i}.50`, currency: "EUR" },
      images: [`https://cdn.example/${tag}/${i}.jpg`],
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

/** The staging tables that hold one of these product ids (the import's own, while it runs). */
async function stagesHolding(ids: string[]): Promise<string[]> {
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname LIKE 'import\\_stage\\_%'`,
  );
  const holding: string[] = [];
  for (const { name } of tables) {
    const [row] = await db
      .$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${name} WHERE id = ANY($1::uuid[])`,
        ids,
      )
      .catch(() => [{ n: 0 }]);
    if (row!.n > 0) holding.push(name);
  }
  return holding;
}

const exists = async (table: string) =>
  (await db.$queryRawUnsafe<{ t: string | null }[]>(`SELECT to_regclass($1)::text AS t`, table))[0]!
    .t !== null;

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
    images: ["https://cdn.example/F/3.jpg"],
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

test("an import that fails part way stores nothing and leaves no staging table behind", async () => {
  const orgId = await newOrg();
  let stage: string | undefined;
  await expect(
    importInBatches(orgId, fileItems("X", 30), 10, async (outcomes) => {
      [stage] = await stagesHolding(outcomes.map((o) => o.product.id));
      throw new Error("the document is broken further down");
    }),
  ).rejects.toThrow("the document is broken further down");
  expect(stage).toMatch(/^import_stage_/);
  expect(await exists(stage!)).toBe(false);
  expect(await db.product.count({ where: { orgId } })).toBe(0);
  expect(await db.productHistory.count({ where: { orgId } })).toBe(0);
});

test("a staging table left by a process that died is dropped by the next import", async () => {
  const orgId = await newOrg();
  // Named as a table made in 2001 would be: far older than any import may run.
  const orphan = `import_stage_1000000000_${randomBytes(6).toString("hex")}`;
  await db.$executeRawUnsafe(`CREATE UNLOGGED TABLE ${orphan} (batch int)`);
  await importInBatches(orgId, fileItems("O", 2), 10);
  expect(await exists(orphan)).toBe(false);
});

test("a batch of new products costs two statements in the import's transaction, not four", async () => {
  const orgId = await newOrg();
  const items = fileItems(`rt${randomBytes(3).toString("hex")}`, 30);
  const sent: string[] = [];
  await importInOneTransaction(db, orgId, options, async (importBatch, tx) => {
    // The same transaction client every batch is written with: count what goes through it.
    const client = tx as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ["$executeRawUnsafe", "$queryRawUnsafe"]) {
      const original = client[method]!.bind(tx);
      client[method] = (sql: unknown, ...rest: unknown[]) => {
        sent.push(String(sql).trim().split(/\s+/).slice(0, 4).join(" "));
        return original(sql, ...rest);
      };
    }
    for (let i = 0; i < items.length; i += 10) await importBatch(items.slice(i, i + 10));
  });
  // Per batch: the matching query, and one statement that inserts the products and their history
  // (bitmap scans are turned off once for the whole transaction, not before each batch's
  // matching).
  expect(sent).toHaveLength(6);
  expect(sent.filter((sql) => sql.startsWith("SET"))).toEqual([]);
  const stored = await db.product.count({ where: { orgId } });
  expect(stored).toBe(30);
});
