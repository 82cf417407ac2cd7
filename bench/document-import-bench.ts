// A 100,000-row Shopify CSV imported (persist) through the running gateway, while a client
// keeps reading the catalog: rows/s, the gateway's peak RSS, and the readers' latency; and, as
// the ceiling, a raw COPY of the same file into a scratch table of the same database in the same
// run (the ratio is what to compare on a shared machine).
//
//   pnpm exec tsx bench/document-import-bench.ts [--rows 100000] [--readers 4] [--built] [--again]
//   pnpm exec tsx bench/document-import-bench.ts --background   # preview in the background, then store
//
// --built runs the gateway from `pnpm build`'s output as the image starts it (node
// --conditions=built apps/gateway/dist/server.js) instead of from the sources under tsx, whose
// transpiler and source maps are in both the main thread and the parser thread.
import { execFileSync } from "node:child_process";
import { openAsBlob, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import {
  createTestDatabase,
  deleteRedisPrefix,
  dropTestDatabase,
  newRedisPrefix,
} from "@catalog/testing";
import { startChildServer } from "./child-server.js";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { peakRss } from "./peak-rss.js";
import { seedCatalog } from "./seed-catalog.js";

const TARGET_ROWS_PER_SECOND = 40_000;
const TARGET_RSS_MB = 300;
const TARGET_P99_MS = 50;

/** The ceiling: PostgreSQL reading the same CSV into a table of text columns, nothing else. */
async function rawCopyRowsPerSecond(databaseUrl: string, file: string): Promise<number> {
  const handle = await open(file, "r");
  const start = Buffer.alloc(64 * 1024);
  const { bytesRead } = await handle.read(start, 0, start.length, 0).finally(() => handle.close());
  const header = start.subarray(0, bytesRead).toString("utf8").split("\n")[0]!;
  const columns = header.split(",").map((_, i) => `c${i} text`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE UNLOGGED TABLE copy_ceiling (${columns.join(", ")})`);
    const started = performance.now();
    const result = await client.query(
      `COPY copy_ceiling FROM '${file}' WITH (FORMAT csv, HEADER true)`,
    );
    const seconds = (performance.now() - started) / 1000;
    await client.query("DROP TABLE copy_ceiling");
    return (result.rowCount ?? 0) / seconds;
  } finally {
    await client.end();
  }
}

/**
 * POSTs a multipart form and reads the whole answer. Not fetch: its headers timeout (300 s) is
 * shorter than a 1,000,000-row import, whose answer starts once the import is complete.
 */
async function postForm(
  url: string,
  form: FormData,
  cookie: string,
): Promise<{ status: number; text: string }> {
  const encoded = new Response(form);
  const request = httpRequest(url, {
    method: "POST",
    headers: { cookie, "content-type": encoded.headers.get("content-type")! },
  });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
  });
  await pipeline(Readable.fromWeb(encoded.body! as never), request);
  const response = await answered;
  // The answer carries every product (about 1 GB at 1,000,000 rows): keep its start (an error
  // answer is short) and its end (the summary), not the whole.
  const KEEP = 64 * 1024;
  let head = "";
  let tail = "";
  let whole = true;
  response.setEncoding("utf8");
  for await (const chunk of response) {
    if (head.length < KEEP) head += chunk as string;
    else whole = false;
    tail = (tail + (chunk as string)).slice(-KEEP);
  }
  return { status: response.statusCode ?? 0, text: whole ? head : tail };
}

/** The answer's summary and error, from the whole answer or from its end. */
function answerOf(text: string): { summary?: Record<string, number>; error?: string } {
  try {
    return JSON.parse(text) as { summary?: Record<string, number>; error?: string };
  } catch {
    const summary = /"summary":(\{[^}]*\})/.exec(text)?.[1];
    return summary ? { summary: JSON.parse(summary) as Record<string, number> } : {};
  }
}

/**
 * The import resource's way: the document previewed in the background (POST /api/imports, polled
 * until ready), then stored (POST .../store, polled until stored). Seconds of each phase, polled
 * every 50 ms.
 */
async function importInBackground(
  base: string,
  file: string,
  cookie: string,
): Promise<{ preview: number; store: number; result: unknown }> {
  const form = new FormData();
  form.append("currency", "USD");
  form.append("file", await openAsBlob(file), "shopify.csv");
  const started = performance.now();
  const created = await postForm(`${base}/api/imports`, form, cookie);
  if (created.status !== 202)
    throw new Error(`POST /api/imports answered ${created.status}: ${created.text.slice(0, 300)}`);
  const { id } = JSON.parse(created.text) as { id: string };
  const until = async (status: string) => {
    for (;;) {
      const response = await fetch(`${base}/api/imports/${id}`, { headers: { cookie } });
      const view = (await response.json()) as { status: string; error?: string; result?: unknown };
      if (view.status === status) return view;
      if (view.status === "failed") throw new Error(`the import failed: ${view.error}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await until("ready");
  const preview = (performance.now() - started) / 1000;
  const storing = performance.now();
  const store = await fetch(`${base}/api/imports/${id}/store`, {
    method: "POST",
    headers: { cookie },
  });
  if (store.status !== 202)
    throw new Error(`store answered ${store.status}: ${await store.text()}`);
  const { result } = await until("stored");
  return { preview, store: (performance.now() - storing) / 1000, result };
}

async function main(cleanup: CleanupStack) {
  const { values } = parseArgs({
    options: {
      rows: { type: "string", default: "100000" },
      readers: { type: "string", default: "4" },
      built: { type: "boolean", default: false },
      again: { type: "boolean", default: false },
      background: { type: "boolean", default: false },
    },
  });
  const rows = Number(values.rows);
  const readerConnections = Number(values.readers);
  const baseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/catalog";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

  const file = join(tmpdir(), `shopify-${rows}-${process.pid}.csv`);
  execFileSync(
    "node_modules/.bin/tsx",
    ["bench/fixtures/make-shopify-csv.ts", String(rows), file],
    { cwd: new URL("..", import.meta.url), stdio: "inherit" },
  );
  cleanup.add("remove the CSV", async () => rmSync(file, { force: true }));

  const prefix = newRedisPrefix();
  cleanup.add(`delete Redis keys ${prefix}:*`, () =>
    deleteRedisPrefix({ REDIS_URL: redisUrl, REDIS_CLUSTER: false }, prefix),
  );
  const databaseUrl = await cleanup.adopt(
    "drop bench database",
    createTestDatabase(baseUrl, "docbench"),
    dropTestDatabase,
  );
  const seeded = await seedCatalog(databaseUrl, 1000);
  const gateway = await startChildServer(
    cleanup,
    "gateway",
    values.built ? "apps/gateway/dist/server.js" : "apps/gateway/src/server.ts",
    {
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: "warn",
      RATE_LIMIT_MAX: "100000000",
      DOCUMENT_MAX_BYTES: String(1024 * 1024 * 1024),
      // e.g. GATEWAY_NODE_OPTIONS=--max-old-space-size=192, to see how much of the peak is garbage
      // not yet collected.
      NODE_OPTIONS: process.env.GATEWAY_NODE_OPTIONS ?? "",
    },
    "/readyz",
  );

  const login = await fetch(`${gateway.url}/api/auth/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: seeded.email, password: seeded.password }),
  });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;

  // What the gateway held before the import (started, signed in): the floor under its peak.
  const rssBefore = await peakRss(gateway.pid);

  // Readers that keep asking for the first page (a different page size each time, so no cache
  // helps).
  let n = 0;
  let readers: autocannon.Instance | undefined;
  const reading =
    readerConnections === 0
      ? Promise.resolve(null)
      : new Promise<autocannon.Result>((resolve, reject) => {
          readers = autocannon(
            {
              url: `${gateway.url}/api/products`,
              connections: readerConnections,
              duration: 3600,
              headers: { cookie },
              requests: [
                {
                  method: "GET",
                  setupRequest: (req) => ({
                    ...req,
                    path: `/api/products?pageSize=${(n++ % 100) + 1}`,
                  }),
                },
              ],
            },
            (error: Error | null, result) => (error ? reject(error) : resolve(result)),
          );
        });

  const form = new FormData();
  form.append("persist", "true");
  form.append("currency", "USD");
  form.append("file", await openAsBlob(file), "shopify.csv");
  const started = performance.now();
  let seconds: number;
  if (values.background) {
    const phases = await importInBackground(gateway.url, file, cookie);
    seconds = phases.preview + phases.store;
    readers?.stop();
    console.log(
      `\n${rows.toLocaleString("en-US")} CSV rows -> ${JSON.stringify(phases.result)} (gateway ${values.built ? "built" : "from sources under tsx"}, in the background)`,
    );
    console.log(
      `preview (until ready): ${phases.preview.toFixed(1)} s, ${Math.round(rows / phases.preview).toLocaleString("en-US")} rows/s; ` +
        `store (until stored): ${phases.store.toFixed(1)} s, ${Math.round(rows / phases.store).toLocaleString("en-US")} rows/s`,
    );
  } else {
    const response = await postForm(`${gateway.url}/api/import/document`, form, cookie);
    const body = answerOf(response.text);
    seconds = (performance.now() - started) / 1000;
    readers?.stop();
    if (response.status !== 200)
      throw new Error(`import answered ${response.status}: ${body.error}`);
    console.log(
      `\n${rows.toLocaleString("en-US")} CSV rows -> ${JSON.stringify(body.summary)} (gateway ${values.built ? "built" : "from sources under tsx"})`,
    );
  }
  const reads = await reading;
  const rss = await peakRss(gateway.pid);
  const rssMb = rss / 1024 / 1024;
  const rate = rows / seconds;
  console.log(
    `${values.background ? "preview and store" : "import"}: ${seconds.toFixed(1)} s, ${Math.round(rate).toLocaleString("en-US")} rows/s; gateway peak RSS ${rssMb.toFixed(0)} MB ` +
      `(${(rssBefore / 1024 / 1024).toFixed(0)} MB before the import)`,
  );
  const ceiling = await rawCopyRowsPerSecond(databaseUrl, file);
  console.log(
    `ceiling, raw COPY of the same file into a scratch table: ${Math.round(ceiling).toLocaleString("en-US")} rows/s; ` +
      `import/ceiling ${((100 * rate) / ceiling).toFixed(1)}%`,
  );
  if (reads) {
    console.log(
      `concurrent GET /api/products (${readerConnections} connections) during the import: ${reads.requests.total} requests, ` +
        `p50 ${reads.latency.p50} ms, p99 ${reads.latency.p99} ms, max ${reads.latency.max} ms, non-2xx ${reads.non2xx}`,
    );
  }
  const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
  console.log(
    `[${verdict(rate >= TARGET_ROWS_PER_SECOND)}] at least ${TARGET_ROWS_PER_SECOND.toLocaleString("en-US")} rows/s`,
  );
  console.log(`[${verdict(rssMb < TARGET_RSS_MB)}] peak RSS under ${TARGET_RSS_MB} MB`);
  if (reads)
    console.log(
      `[${verdict(reads.latency.p99 < TARGET_P99_MS)}] readers' p99 under ${TARGET_P99_MS} ms`,
    );
  if (values.again) {
    // A feed imported again the next day: every row matched by its SKU, nothing changed.
    const again = performance.now();
    const second = await postForm(`${gateway.url}/api/import/document`, form, cookie);
    const secondSeconds = (performance.now() - again) / 1000;
    const secondBody = answerOf(second.text);
    if (second.status !== 200)
      throw new Error(`the second import answered ${second.status}: ${secondBody.error}`);
    console.log(
      `the same file again: ${JSON.stringify(secondBody.summary)}, ${secondSeconds.toFixed(1)} s, ` +
        `${Math.round(rows / secondSeconds).toLocaleString("en-US")} rows/s; gateway peak RSS ` +
        `${((await peakRss(gateway.pid)) / 1024 / 1024).toFixed(0)} MB`,
    );
  }
}

await runBench(main);
