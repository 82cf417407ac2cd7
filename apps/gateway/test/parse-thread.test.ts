// The document parser thread's batches (parse-thread.ts, parse-worker.ts): cut by rows and by
// characters, they arrive whole, in order and unchanged, whatever the script of their text and
// however wide a row is; a thread that answered its job takes the next one, one stopped mid-job
// does not, and each job's rows are its own.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storedDescription } from "@catalog/db/description";
import { ServiceError } from "@catalog/db";
import {
  columnsInThread,
  parseInThread,
  prestartParseThread,
  type ParseJob,
  type ParsedEntry,
} from "../src/importing/parse-thread.js";
import { closeParseThreads, idleParseThreads } from "../src/importing/parse-threads.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "parse-thread-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => closeParseThreads());

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

const options = () => ({ heapMb: 64, signal: new AbortController().signal });

/** A JSON document of `count` products titled `<name> <i>`, as a parse job. */
async function jsonJob(name: string, count: number, batchRows = 2): Promise<ParseJob> {
  const path = join(dir, `${name}.json`);
  const products = Array.from({ length: count }, (_, i) => ({
    title: `${name} ${i}`,
    sku: `${name}-${i}`,
  }));
  await writeFile(path, JSON.stringify(products));
  return {
    path,
    tmpDir: dir,
    batchRows,
    batchChars: 1_000_000,
    meta: { filename: `${name}.json`, contentType: "application/json", maxBytes: 10_000_000 },
  };
}

async function titles(job: ParseJob): Promise<string[]> {
  const read: string[] = [];
  for await (const batch of parseInThread(job, options()))
    for (const entry of batch) read.push("item" in entry ? entry.item.fields.title : entry.error);
  return read;
}

test("a thread that answered its job, even with a refusal, reads the next document whole", async () => {
  const first = await jsonJob("first", 5);
  expect(await titles(first)).toEqual(["first 0", "first 1", "first 2", "first 3", "first 4"]);
  expect(idleParseThreads()).toBe(1);

  // The columns, then the rows of the same document: what an import with a mapping does.
  const columns = await columnsInThread(await jsonJob("columns", 3), 2, options());
  expect(columns.preview).toHaveLength(2);
  expect(idleParseThreads()).toBe(1);

  const broken = join(dir, "broken.json");
  await writeFile(broken, '[{"title": "only half');
  const refused = titles({
    ...first,
    path: broken,
    meta: { ...first.meta, filename: "broken.json" },
  });
  await expect(refused).rejects.toBeInstanceOf(ServiceError);
  expect(idleParseThreads()).toBe(1);

  // Its credits and rows start afresh: nothing of the earlier jobs comes with it.
  expect(await titles(await jsonJob("second", 7, 3))).toEqual(
    Array.from({ length: 7 }, (_, i) => `second ${i}`),
  );
  expect(idleParseThreads()).toBe(1);
});

test("a thread stopped mid-job is not kept, and the next job gets a thread of its own", async () => {
  const reading = parseInThread(await jsonJob("stopped", 40), options());
  const step = await reading.next();
  expect(step.done).toBe(false);
  await reading.return({ rows: 0, encoding: null });
  expect(idleParseThreads()).toBe(0);

  expect(await titles(await jsonJob("after", 3))).toEqual(["after 0", "after 1", "after 2"]);
  expect(idleParseThreads()).toBe(1);
});

test("a thread started while an upload arrives serves its document; idle threads go with the gateway's close", async () => {
  prestartParseThread(64);
  prestartParseThread(64);
  expect(idleParseThreads()).toBe(1);
  const reading = parseInThread(await jsonJob("prestarted", 3), options());
  const first = await reading.next();
  // The job took the waiting thread: none is left idle, and none was started beside it.
  expect(idleParseThreads()).toBe(0);
  expect(first.done).toBe(false);
  for (let step = await reading.next(); !step.done; step = await reading.next());
  expect(idleParseThreads()).toBe(1);
  await closeParseThreads();
  expect(idleParseThreads()).toBe(0);
});
