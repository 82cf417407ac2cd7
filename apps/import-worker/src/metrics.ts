import type { Queue } from "bullmq";
import { Counter, Gauge, Registry } from "prom-client";
import { sharedScrapeRead } from "@catalog/queue";

/**
 * The import worker's Prometheus metrics: pages read (counted as they finish) and the shared
 * scrape queue's depth (read when scraped; every worker reports the same figure).
 */
export function createImportMetrics(queue: Queue) {
  const registry = new Registry();
  const registers = [registry];
  const pages = new Counter({
    name: "catalog_import_pages_total",
    help: "Product pages read, by outcome (ok, failed, error) and whether Chromium rendered them",
    labelNames: ["outcome", "rendered"] as const,
    registers,
  });
  // A failed read keeps the last figures, and catalog_import_queue_read_errors says so.
  const read = sharedScrapeRead(() => queue.getJobCounts("waiting", "active", "delayed"));
  const jobsInQueue: Gauge<"state"> = new Gauge({
    name: "catalog_import_queue_jobs",
    help: "Pages in the shared scrape queue by state (waiting, active, delayed)",
    labelNames: ["state"] as const,
    registers,
    collect: () =>
      read().then(
        (counts) => {
          for (const [state, count] of Object.entries(counts)) jobsInQueue.set({ state }, count);
        },
        () => {},
      ),
  });
  const readErrors: Gauge = new Gauge({
    name: "catalog_import_queue_read_errors",
    help: "1 when this scrape could not read the queue depth from Redis",
    registers,
    collect: () =>
      read().then(
        () => readErrors.set(0),
        () => readErrors.set(1),
      ),
  });
  return {
    registry,
    page: (outcome: "ok" | "failed" | "error", rendered: boolean) =>
      pages.inc({ outcome, rendered: String(rendered) }),
  };
}
