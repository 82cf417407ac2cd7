import { randomBytes } from "node:crypto";
import {
  createDb,
  createOrg,
  importProducts,
  listHistory,
  type Db,
  type ImportItem,
} from "@catalog/db";

let db: Db;
beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { poolSize: 2 });
});
afterAll(() => db.$disconnect());

const actor = { type: "user" as const, id: null };
const newOrg = async () => (await createOrg(db, `import ${randomBytes(4).toString("hex")}`)).id;
const item = (
  fields: ImportItem["fields"],
  provenance: Record<string, unknown> = {},
): ImportItem => ({ fields, provenance });
const counts = async (orgId: string) => ({
  products: await db.product.count({ where: { orgId } }),
  history: await db.productHistory.count({ where: { orgId } }),
});

test("a preview reports what would be created or updated and writes nothing", async () => {
  const orgId = await newOrg();
  await importProducts(
    db,
    orgId,
    [item({ title: "Lamp", sku: "L-1", price: { amount: "10.00", currency: "EUR" } })],
    { actor, source: "document", persist: true },
  );
  const before = await counts(orgId);
  const outcomes = await importProducts(
    db,
    orgId,
    [
      item({ title: "Lamp", sku: "L-1", price: { amount: "12.00", currency: "EUR" } }),
      item({ title: "Chair", sku: "C-1" }),
    ],
    { actor, source: "document", persist: false },
  );
  expect(outcomes[0]).toMatchObject({
    action: "preview",
    wouldBe: "updated",
    changes: {
      price: {
        from: { amount: "10.00", currency: "EUR" },
        to: { amount: "12.00", currency: "EUR" },
      },
    },
  });
  expect(outcomes[0]!.product.price).toEqual({ amount: "12.00", currency: "EUR" });
  expect(outcomes[1]).toMatchObject({
    action: "preview",
    wouldBe: "created",
    existingId: null,
    product: { title: "Chair", sku: "C-1" },
  });
  expect(await counts(orgId)).toEqual(before);
});

test("re-importing updates the same product by SKU, else by source URL, and records an imported diff", async () => {
  const orgId = await newOrg();
  const [bySku, byUrl] = await importProducts(
    db,
    orgId,
    [
      item(
        { title: "Mug", sku: "MUG-1", brand: "Potter", images: ["https://img.test/a.jpg"] },
        { title: { source: "json-ld", method: "Product.name" } },
      ),
      item({ title: "Bowl", sourceUrl: "https://shop.test/bowl" }),
    ],
    { actor, source: "scrape", persist: true },
  );
  expect(bySku).toMatchObject({ action: "created", product: { version: 1, source: "scrape" } });

  const again = await importProducts(
    db,
    orgId,
    [
      item({ title: "Mug (large)", sku: "MUG-1", brand: null, description: "  " }),
      item({
        title: "Bowl",
        sourceUrl: "https://shop.test/bowl",
        price: { amount: "5.50", currency: "USD" },
      }),
    ],
    { actor: { type: "apiKey", id: "key-1" }, source: "extension", persist: true },
  );
  expect(again[0]).toMatchObject({
    action: "updated",
    product: {
      id: bySku!.product.id,
      title: "Mug (large)",
      brand: "Potter",
      images: ["https://img.test/a.jpg"],
      version: 2,
      source: "scrape",
    },
  });
  expect(again[0]!.changes).toEqual({ title: { from: "Mug", to: "Mug (large)" } });
  expect(again[1]).toMatchObject({
    action: "updated",
    product: { id: byUrl!.product.id, price: { amount: "5.50", currency: "USD" } },
  });
  expect(await db.product.count({ where: { orgId } })).toBe(2);

  const history = await listHistory(db, orgId, bySku!.product.id, { page: 1, pageSize: 10 });
  expect(history.items.map((h) => h.action)).toEqual(["imported", "imported"]);
  expect(history.items[0]).toMatchObject({
    actor: { type: "apiKey", id: "key-1" },
    changes: { title: { from: "Mug", to: "Mug (large)" } },
  });
  const stored = await db.product.findUniqueOrThrow({ where: { id: bySku!.product.id } });
  expect(stored).toMatchObject({ title: "Mug (large)", brand: "Potter", version: 2 });
  expect(stored.provenance).toEqual({ title: { source: "json-ld", method: "Product.name" } });
});

test("an import identical to the catalog changes nothing and writes no history", async () => {
  const orgId = await newOrg();
  await importProducts(db, orgId, [item({ title: "Vase", sku: "V-1" })], {
    actor,
    source: "document",
    persist: true,
  });
  const before = await counts(orgId);
  const [outcome] = await importProducts(db, orgId, [item({ title: "Vase", sku: "V-1" })], {
    actor,
    source: "document",
    persist: true,
  });
  expect(outcome).toMatchObject({ action: "updated", changes: {}, product: { version: 1 } });
  expect(await counts(orgId)).toEqual(before);
});

test("a description stored before the cleaning rule comes back clean from a re-import, whether or not the item has one", async () => {
  const orgId = await newOrg();
  const [created] = await importProducts(db, orgId, [item({ title: "Shirt", sku: "S-1" })], {
    actor,
    source: "document",
    persist: true,
  });
  // As a row written by hand or before the rule would hold it.
  await db.$executeRaw`UPDATE products SET description = ${'<p onclick="steal()">Soft <b>linen</b>.</p><script>alert(1)</script>'} WHERE id = ${created!.product.id}::uuid`;
  const clean = "<p>Soft <b>linen</b>.</p>";
  for (const fields of [
    { title: "Shirt", sku: "S-1" },
    { title: "Shirt", sku: "S-1", description: clean },
  ]) {
    for (const persist of [false, true]) {
      const [outcome] = await importProducts(db, orgId, [item(fields)], {
        actor,
        source: "document",
        persist,
        descriptionsStored: true,
      });
      expect(outcome).toMatchObject({ changes: {}, product: { description: clean } });
    }
  }
});

test("the same SKU twice in one batch makes one product, and another org's product with that SKU is untouched", async () => {
  const mine = await newOrg();
  const theirs = await newOrg();
  await importProducts(db, theirs, [item({ title: "Theirs", sku: "DUP-1" })], {
    actor,
    source: "document",
    persist: true,
  });
  const outcomes = await importProducts(
    db,
    mine,
    [item({ title: "First", sku: "DUP-1" }), item({ title: "Second", sku: "DUP-1", brand: "B" })],
    { actor, source: "document", persist: true },
  );
  expect(outcomes.map((o) => o.product.id)).toEqual([
    outcomes[0]!.product.id,
    outcomes[0]!.product.id,
  ]);
  const rows = await db.product.findMany({ where: { sku: "DUP-1" }, orderBy: { title: "asc" } });
  expect(rows.map((r) => [r.orgId, r.title, r.brand])).toEqual([
    [mine, "Second", "B"],
    [theirs, "Theirs", null],
  ]);
});

test("a batch of 2,000 products is written in one go", async () => {
  const orgId = await newOrg();
  const items = Array.from({ length: 2000 }, (_, i) =>
    item({
      title: `Item ${i}`,
      sku: `BULK-${i}`,
      images: [`https://img.test/${i}.jpg`],
      variants: [],
    }),
  );
  const outcomes = await importProducts(db, orgId, items, {
    actor,
    source: "document",
    persist: true,
  });
  expect(outcomes.every((o) => o.action === "created")).toBe(true);
  expect(await counts(orgId)).toEqual({ products: 2000, history: 2000 });
  const sample = await db.product.findFirstOrThrow({ where: { orgId, sku: "BULK-7" } });
  expect(sample.images).toEqual(["https://img.test/7.jpg"]);
});
