// Each process loads what it runs (issue 28): the import worker fetches and reads pages, so what
// its start file loads reaches neither the sales channels (which @catalog/config's barrel used to
// bring), nor the document readers (exceljs, yauzl), nor password hashing. Since the source watch
// (issue 29) it records re-checks in PostgreSQL, through `@catalog/db/source-watch` only: the
// Prisma client on its pg adapter, not the rest of the data layer.
import { importGraph } from "../../../packages/channels/test/import-graph.js";

const graph = importGraph("apps/import-worker/src/main.ts");
const packages = [...graph.packages.keys()];
/** The workspace folders reached ("packages/extract"). */
const workspace = [
  ...new Set([...graph.files].map((file) => file.split("/").slice(0, 2).join("/"))),
].sort();

test("the import worker loads the page reader, the fetcher, the queue, its configuration, tracing's switches and the source watch's data access, and no other workspace package", () => {
  expect(workspace).toEqual([
    "apps/import-worker",
    "packages/config",
    "packages/db",
    "packages/extract",
    "packages/fetch",
    "packages/queue",
    "packages/tracing",
    "packages/values",
  ]);
  // Tracing's SDK is loaded by the register module, and only when tracing is on.
  expect(graph.files).not.toContain("packages/tracing/src/start.ts");
  expect(graph.files).not.toContain("packages/extract/src/documents/index.ts");
  expect(graph.files).not.toContain("packages/db/src/index.ts");
});

test("the import worker loads no password hashing and no document or channel library", () => {
  for (const name of ["@node-rs/argon2", "exceljs", "yauzl", "stream-json", "ajv"]) {
    expect(packages).not.toContain(name);
  }
  expect(packages).toEqual(expect.arrayContaining(["bullmq", "cheerio", "pino", "typebox"]));
});

test("the renderer process loads its configuration and the renderer, and neither the database, Redis nor the queue", () => {
  const renderer = importGraph("apps/import-worker/src/renderer-main.ts");
  const reached = new Set([...renderer.files].map((file) => file.split("/").slice(0, 2).join("/")));
  expect([...reached].sort()).toEqual(["apps/import-worker", "packages/config", "packages/fetch"]);
  for (const name of ["bullmq", "ioredis", "pg", "@prisma/client"]) {
    expect([...renderer.packages.keys()]).not.toContain(name);
  }
});
