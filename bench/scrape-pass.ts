// A measuring process of bench/scrape-bench.ts (forked, one or several): on each message it
// reads its share of the pages, plainly, through the import worker's scrape processor, or by
// extraction alone from pages it fetched before, and answers with what it read and the CPU
// time it took. The bench times the passes from outside.
import http from "node:http";
import { extractProduct } from "../packages/extract/src/index.js";
import { fetchPublic } from "../packages/fetch/src/index.js";
import { createScrapeProcessor } from "../apps/import-worker/src/scrape-processor.js";

/**
 * plain: GET and read each page; scrape: the import worker's job function per page; load: fetch
 * each page as the scrape processor does and keep its text (untimed preparation); extract:
 * extractProduct on the kept text of page `bodyOf[i]` for `urls[i]`, no fetching (the ceiling).
 */
export interface PassRequest {
  mode: "plain" | "scrape" | "load" | "extract";
  urls: string[];
  concurrency: number;
  /** extract only: the loaded page whose text stands for each of `urls`. */
  bodyOf?: string[];
}

export interface PassResult {
  bytes: number;
  products: number;
  failures: string[];
  /** CPU time this process spent on the pass (user + system, all its threads), ms. */
  cpuMs: number;
}

/** `count` jobs, at most `concurrency` at a time, each worker taking the next index. */
async function pool(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/**
 * The baseline: a plain GET (Node's default agent, keep-alive), the whole body read, nothing else.
 */
function plainGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        const chunks: Buffer[] = [];
        let total = 0;
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          total += chunk.length;
        });
        response.on("end", () => {
          if (response.statusCode !== 200)
            reject(new Error(`GET ${url} answered ${response.statusCode}`));
          else resolve(Buffer.concat(chunks, total).length);
        });
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

// What the import worker runs per job with LOCAL_INGEST on and its default limits; no browser
// fallback (a page without a product in its static HTML counts as no product).
const processor = createScrapeProcessor({
  policy: { allowPrivate: true },
  renderer: null,
  fetchTimeoutMs: 15_000,
  renderTimeoutMs: 20_000,
  maxBytes: 5 * 1024 * 1024,
});

// The worker's fetch of a page, kept for the extraction-alone passes: the same text
// extractProduct gets inside the scrape processor.
const fetchOptions = {
  policy: { allowPrivate: true },
  timeoutMs: 15_000,
  maxBytes: 5 * 1024 * 1024,
};
const loaded = new Map<string, string>();

async function runPass({ mode, urls, concurrency, bodyOf }: PassRequest): Promise<PassResult> {
  const result: PassResult = { bytes: 0, products: 0, failures: [], cpuMs: 0 };
  const cpuBefore = process.cpuUsage();
  await pool(urls.length, concurrency, async (i) => {
    const url = urls[i] as string;
    if (mode === "plain") {
      const read = await plainGet(url);
      result.bytes += read;
      return;
    }
    if (mode === "load") {
      const page = await fetchPublic(url, fetchOptions);
      loaded.set(url, page.body);
      return;
    }
    if (mode === "extract") {
      const body = loaded.get(bodyOf?.[i] ?? url);
      if (body === undefined) throw new Error(`no loaded page for ${url}`);
      // As in the processor: one page's extraction, then back to the event loop.
      if (extractProduct(body, url)) result.products++;
      else result.failures.push(`no product found on ${url}`);
      await new Promise(setImmediate);
      return;
    }
    // The processor reads only job.data, as BullMQ hands it over.
    const outcome = await processor({ data: { url, requestId: `bench-${i}` } } as Parameters<
      typeof processor
    >[0]);
    if (outcome.ok) result.products++;
    else result.failures.push(outcome.error);
  });
  const cpu = process.cpuUsage(cpuBefore);
  result.cpuMs = (cpu.user + cpu.system) / 1000;
  return result;
}

process.on("message", (request: PassRequest) => {
  runPass(request).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ error: (error as Error).message }),
  );
});
// Exiting (not dying) on a signal lets `node --cpu-prof` write this process's profile.
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
process.send?.("ready");
