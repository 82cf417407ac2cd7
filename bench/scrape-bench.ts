// The import worker's scrape path against extraction alone on the same pages, in the same run
// (issue 32, item 4), with plain fetching beside them for scale (issue 3, bench b).
//
//   pnpm exec tsx bench/scrape-bench.ts [--pages 500] [--rounds 3] [--concurrency 8] [--processes 1]
//
// A child process serves the shared corpus's product pages on loopback (scrape-page-server.ts).
// Measuring processes (scrape-pass.ts) read them three ways, the same processes, pages and
// concurrency, the order rotating each round:
//   plain:   node:http GET, whole body read (what moving the bytes costs).
//   extract: extractProduct on the page's text fetched beforehand (the ceiling: extraction alone).
//   scrape:  the import worker's scrape processor (fetchPublic with loopback allowed, as
//            LOCAL_INGEST does, then extractProduct) called directly per page, without BullMQ.
// Target: scrape pages/s >= 80% of extraction alone (fetching, pinning and job handling cost no
// more than a fifth).
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

/** Scrape pages/s as a share of extraction alone on the same pages (issue 32). */
const TARGET_RATIO = 0.8;
type Mode = "plain" | "extract" | "scrape";
const MODES: Mode[] = ["plain", "extract", "scrape"];

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
  bodyOf?: string[],
): Promise<Pass> {
  const share = <T>(list: T[], k: number) => list.filter((_, i) => i % children.length === k);
  const started = performance.now();
  const parts = await Promise.all(
    children.map((child, k) =>
      ask(child, {
        mode,
        concurrency,
        urls: share(urls, k),
        ...(bodyOf ? { bodyOf: share(bodyOf, k) } : {}),
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    bytes: parts.reduce((sum, p) => sum + p.bytes, 0),
    products: parts.reduce((sum, p) => sum + p.products, 0),
    failures: parts.flatMap((p) => p.failures),
    cpuMs: parts.reduce((sum, p) => sum + p.cpuMs, 0),
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
    "plain:   node:http GET per page (default agent, keep-alive), whole body read, nothing else",
  );
  console.log(
    "extract: extractProduct(text, url) per page on the text fetchPublic gave for it before the rounds " +
      "(the ceiling: extraction alone, no fetching)",
  );
  console.log(
    "scrape:  createScrapeProcessor(...)(job) called directly per page (fetchPublic with loopback allowed as with LOCAL_INGEST, " +
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

  // Every measuring process fetches the distinct pages once, as the processor would, and keeps
  // their text for the extraction-alone passes; page n is distinct page n mod the corpus size.
  const distinct = urls.slice(0, Math.min(pages, corpusPages));
  await Promise.all(
    children.map((child) => ask(child, { mode: "load", concurrency, urls: distinct })),
  );
  const bodyOf = urls.map((_, i) => distinct[i % distinct.length] as string);
  const run = (mode: Mode, list: string[]) =>
    pass(children, mode, list, concurrency, mode === "extract" ? bodyOf : undefined);

  // One unrecorded pass of each over each distinct page first (JIT, sockets).
  for (const mode of MODES) await run(mode, distinct);

  const passes: Record<Mode, Pass[]> = { plain: [], extract: [], scrape: [] };
  const rate = (p: Pass) => pages / p.seconds;
  const cpuPerPage = (p: Pass) => p.cpuMs / pages;
  for (let round = 0; round < rounds; round++) {
    // Rotate which goes first, so drift on the shared machine is not always charged to one side.
    const order = MODES.map((_, k) => MODES[(k + round) % MODES.length] as Mode);
    for (const mode of order) passes[mode].push(await run(mode, urls));
    const [p, e, s] = MODES.map((mode) => passes[mode][round] as Pass) as [Pass, Pass, Pass];
    console.log(
      `round ${round + 1} (${order.join(", ")}): plain ${rate(p).toFixed(1)} pages/s | ` +
        `extract ${rate(e).toFixed(1)} pages/s, ${cpuPerPage(e).toFixed(2)} CPU ms/page | ` +
        `scrape ${rate(s).toFixed(1)} pages/s, ${cpuPerPage(s).toFixed(2)} CPU ms/page, ${s.products}/${pages} products | ` +
        `scrape/extract ${((e.seconds / s.seconds) * 100).toFixed(1)}%`,
    );
  }

  const { plain, extract, scrape } = passes;
  const ratio = median(extract.map((e, i) => e.seconds / (scrape[i] as Pass).seconds));
  const cpuRatio = median(extract.map((e, i) => e.cpuMs / (scrape[i] as Pass).cpuMs));
  const plainRatio = median(plain.map((p, i) => p.seconds / (scrape[i] as Pass).seconds));
  const last = scrape[scrape.length - 1] as Pass;
  const productCounts = [...new Set(scrape.map((s) => s.products))];
  const extracted = [...new Set(extract.map((e) => e.products))];
  console.log(`\nmedians over ${rounds} rounds (ratios = medians of the per-round ratios):`);
  console.log(
    `  plain fetch:     ${median(plain.map(rate)).toFixed(1)} pages/s (${((plain[0] as Pass).bytes / pages / 1024).toFixed(0)} KB a page on average), ${median(plain.map(cpuPerPage)).toFixed(2)} CPU ms/page`,
  );
  console.log(
    `  extract alone:   ${median(extract.map(rate)).toFixed(1)} pages/s, ${median(extract.map(cpuPerPage)).toFixed(2)} CPU ms/page`,
  );
  console.log(
    `  scrape:          ${median(scrape.map(rate)).toFixed(1)} pages/s, ${median(scrape.map(cpuPerPage)).toFixed(2)} CPU ms/page`,
  );
  console.log(
    `  scrape/extract:  ${(ratio * 100).toFixed(1)}% of the pages/s (CPU per page: extraction is ${(cpuRatio * 100).toFixed(1)}% of the scrape's)`,
  );
  console.log(
    `  scrape/plain:    ${(plainRatio * 100).toFixed(1)}% (for scale: parsing is the cost)`,
  );
  console.log(
    `products found: ${last.products}/${pages} pages${productCounts.length > 1 ? ` (differed between rounds: ${productCounts.join(", ")})` : ""}` +
      `; extraction alone: ${extracted.join(", ")}/${pages}`,
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
    `[${ratio >= TARGET_RATIO ? "PASS" : "FAIL"}] scrape >= ${TARGET_RATIO * 100}% of extraction alone (pages/s, same run, same pages): ${(ratio * 100).toFixed(1)}%`,
  );
  return true;
}

await runBench(main);
