// The document parser thread's batches (parse-thread.ts, parse-worker.ts): cut by rows and by
// characters, they arrive whole, in order and unchanged, whatever the script of their text and
// however wide a row is.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storedDescription } from "@catalog/db/description";
import { parseInThread, type ParsedEntry } from "../src/importing/parse-thread.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "parse-thread-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test("batches arrive whole and in order, cut by rows or by characters, with text of every script", async () => {
  const titles = [
    "電気ケトル",
    "Crème brûlée dish 🍮",
    'A "quoted" back\\slash',
    "Plain mug",
    "Tea",
  ];
  // Past the batch's character limit by itself, and 1.2 MB in UTF-8.
  const long = "é".repeat(600_000);
  const products = titles.map((title, i) => ({
    title,
    sku: `PT-${i}`,
    ...(i === 0 ? { description: long } : {}),
  }));
  const path = join(dir, "products.json");
  await writeFile(path, JSON.stringify(products));

  const batches: ParsedEntry[][] = [];
  const reading = parseInThread(
    {
      path,
      tmpDir: dir,
      batchRows: 2,
      batchChars: 500_000,
      meta: { filename: "products.json", contentType: "application/json", maxBytes: 10_000_000 },
    },
    { heapMb: 64, signal: new AbortController().signal },
  );
  for await (const batch of reading) batches.push(batch);

  // The wide first row is a batch by itself; the others are batches of two.
  expect(batches.map((batch) => batch.length)).toEqual([1, 2, 2]);
  const fields = batches.flat().map((entry) => ("item" in entry ? entry.item.fields : null));
  expect(fields.map((f) => f?.title)).toEqual(titles);
  expect(fields.map((f) => f?.sku)).toEqual(titles.map((_, i) => `PT-${i}`));
  // The thread stores descriptions in their stored form; compared whole (a diff would be 1 MB).
  expect(fields[0]?.description === storedDescription(long)).toBe(true);
});
