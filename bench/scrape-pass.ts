// A measuring process of bench/scrape-bench.ts (forked, one or several): on each message it
// fetches its share of the pages, plainly or through the import worker's scrape processor,
// and answers with what it read. The bench times the passes from outside.
import http from "node:http";
import { createScrapeProcessor } from "../apps/import-worker/src/scrape-processor.js";

export interface PassRequest {
  mode: "plain" | "scrape";
  urls: string[];
  concurrency: number;
}

export interface PassResult {
  bytes: number;
  products: number;
  failures: string[];
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

async function runPass({ mode, urls, concurrency }: PassRequest): Promise<PassResult> {
  const result: PassResult = { bytes: 0, products: 0, failures: [] };
  await pool(urls.length, concurrency, async (i) => {
    const url = urls[i] as string;
    if (mode === "plain") {
      const read = await plainGet(url);
      result.bytes += read;
      return;
    }
    // The processor reads only job.data, as BullMQ hands it over.
    const outcome = await processor({ data: { url, requestId: `bench-${i}` } } as Parameters<
      typeof processor
    >[0]);
    if (outcome.ok) result.products++;
    else result.failures.push(outcome.error);
  });
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
