// Scrape throughput against plain fetching of the same pages, in the same run (issue 3, bench b).
//
//   pnpm exec tsx bench/scrape-bench.ts [--pages 500] [--rounds 3] [--concurrency 8] [--processes 1]
//
// A child process serves the shared corpus's product pages on loopback (scrape-page-server.ts).
// Measuring processes (scrape-pass.ts) fetch them. Baseline: node:http GET, whole body read.
// Candidate: the import worker's scrape processor (fetchPublic with loopback allowed, as
// LOCAL_INGEST does, then extractProduct) called directly per page, without BullMQ and Redis.
// Both sides use the same processes, pages and concurrency, and alternate each round.
import { fork, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import {
  corpusAvailable,
  corpusDir,
  listPageFiles,
} from "../packages/extract/test/support/corpus-accuracy.js";
import { median } from "./bench-report.js";
import { startChildServer } from "./child-server.js";
import { runBench, type CleanupStack } from "./cleanup-stack.js";
import { peakRss } from "./peak-rss.js";
import type { PassRequest, PassResult } from "./scrape-pass.js";

const TARGET_RATIO = 0.5;

interface Pass extends PassResult {
  seconds: number;
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  const value = Number(raw ?? fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

function ask(child: ChildProcess, request: PassRequest): Promise<PassResult> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`measuring process ${child.pid} exited (${code}) during a pass`));
    child.once("exit", onExit);
    child.once("message", (reply: PassResult | { error: string }) => {
      child.off("exit", onExit);
      if ("error" in reply) reject(new Error(reply.error));
      else resolve(reply);
    });
    child.send(request);
  });
}

/** Forks the measuring processes; each inherits this process's tsx loader. */
async function startMeasurers(cleanup: CleanupStack, count: number): Promise<ChildProcess[]> {
  const script = new URL("./scrape-pass.ts", import.meta.url).pathname;
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
      cleanup.add(`stop measuring process ${child.pid}`, async () => void child.kill("SIGTERM"));
      return new Promise<ChildProcess>((resolve, reject) => {
        child.once("message", () => resolve(child));
        child.once("exit", (code) =>
          reject(new Error(`measuring process exited (${code}) before it was ready`)),
        );
      });
    }),
  );
}

/** One pass over all `urls`, split round-robin across the processes, timed from here. */
async function pass(
  children: ChildProcess[],
  mode: PassRequest["mode"],
  urls: string[],
  concurrency: number,
): Promise<Pass> {
  const started = performance.now();
  const parts = await Promise.all(
    children.map((child, k) =>
      ask(child, { mode, concurrency, urls: urls.filter((_, i) => i % children.length === k) }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    bytes: parts.reduce((sum, p) => sum + p.bytes, 0),
    products: parts.reduce((sum, p) => sum + p.products, 0),
    failures: parts.flatMap((p) => p.failures),
  };
}

async function main(cleanup: CleanupStack): Promise<boolean> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      pages: { type: "string" },
      rounds: { type: "string" },
      concurrency: { type: "string" },
      processes: { type: "string" },
    },
  });
  const pages = positive("pages", values.pages, 500);
  const rounds = positive("rounds", values.rounds, 3);
  const concurrency = positive("concurrency", values.concurrency, 8);
  const processes = positive("processes", values.processes, 1);
  if (!corpusAvailable()) {
    console.log(
      `scrape bench: no corpus at ${corpusDir().pathname} (../shared beside the repo); nothing to measure, skipping.`,
    );
    return true;
  }
  const corpusPages = listPageFiles().length;
  console.log(
    `scrape bench: ${pages} pages (the ${corpusPages} corpus pages cycled, served uncompressed from a loopback server in its own process), ` +
      `${rounds} rounds, ${processes} measuring process(es) x concurrency ${concurrency}; node ${process.version}, ${availableParallelism()} CPUs`,
  );
  console.log(
    "plain:  node:http GET per page (default agent, keep-alive), whole body read, nothing else",
  );
  console.log(
    "scrape: createScrapeProcessor(...)(job) called directly per page (fetchPublic with loopback allowed as with LOCAL_INGEST, " +
      "then extractProduct; no browser fallback); not through BullMQ/Redis, whose per-job overhead is not in this ratio",
  );
  const server = await startChildServer(
    cleanup,
    "page server",
    "bench/scrape-page-server.ts",
    { PAGES: String(pages) },
    "/ready",
  );
  const urls = Array.from({ length: pages }, (_, i) => `${server.url}/p/${i}`);
  const children = await startMeasurers(cleanup, processes);

  // One unrecorded pass over each distinct page first (JIT, sockets).
  const warm = urls.slice(0, Math.min(pages, corpusPages));
  await pass(children, "plain", warm, concurrency);
  await pass(children, "scrape", warm, concurrency);

  const plain: Pass[] = [];
  const scrape: Pass[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so drift on the shared machine is not always charged to one side.
    const order = round % 2 === 0 ? (["plain", "scrape"] as const) : (["scrape", "plain"] as const);
    for (const mode of order)
      (mode === "plain" ? plain : scrape).push(await pass(children, mode, urls, concurrency));
    const p = plain[round] as Pass;
    const s = scrape[round] as Pass;
    console.log(
      `round ${round + 1} (${order.join(" first, then ")}): plain ${(pages / p.seconds).toFixed(1)} pages/s ` +
        `(${(p.bytes / 1e6 / p.seconds).toFixed(0)} MB/s) | scrape ${(pages / s.seconds).toFixed(1)} pages/s, ` +
        `${s.products}/${pages} products | ratio ${((p.seconds / s.seconds) * 100).toFixed(1)}%`,
    );
  }

  const ratio = median(plain.map((p, i) => p.seconds / (scrape[i] as Pass).seconds));
  const last = scrape[scrape.length - 1] as Pass;
  const productCounts = [...new Set(scrape.map((s) => s.products))];
  console.log(`\nmedians over ${rounds} rounds (ratio = median of the per-round ratios):`);
  console.log(
    `  plain fetch: ${median(plain.map((p) => pages / p.seconds)).toFixed(1)} pages/s (${((plain[0] as Pass).bytes / pages / 1024).toFixed(0)} KB a page on average)`,
  );
  console.log(`  scrape:      ${median(scrape.map((s) => pages / s.seconds)).toFixed(1)} pages/s`);
  console.log(`  ratio:       ${(ratio * 100).toFixed(1)}%`);
  console.log(
    `products found: ${last.products}/${pages} pages${productCounts.length > 1 ? ` (differed between rounds: ${productCounts.join(", ")})` : ""}`,
  );
  const reasons = new Map<string, number>();
  for (const failure of last.failures) {
    const reason = failure.replace(/https?:\/\/\S+/g, "<url>");
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  for (const [reason, count] of reasons) console.log(`  no product: ${count} x ${reason}`);
  const rss = await Promise.all(children.map((child) => peakRss(child.pid ?? -1)));
  console.log(
    `peak RSS of the measuring process(es): ${rss.map((r) => `${(r / 1024 / 1024).toFixed(0)} MB`).join(", ")}`,
  );
  console.log(
    `[${ratio >= TARGET_RATIO ? "PASS" : "FAIL"}] scrape >= ${TARGET_RATIO * 100}% of plain-fetch pages/s: ${(ratio * 100).toFixed(1)}%`,
  );
  return true;
}

await runBench(main);
