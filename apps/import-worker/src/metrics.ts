import type { Queue } from "bullmq";
import { Counter, Gauge, Registry } from "prom-client";

/**
 * The import worker's Prometheus metrics: pages read (counted as they finish) and the shared
 * scrape queue's depth (read when scraped; every worker reports the same figure).
 */
export function createImportMetrics(queue: Queue) {
  const registry = new Registry();
  const registers = [registry];
  const pages = new Counter({
    name: "catalog_import_pages_total", help: "Product pages read, by outcome (ok, failed, error) and whether Chromium rendered them",
    labelNames: ["outcome", "rendered"] as const, registers,
  });
  new Gauge({
    name: "catalog_import_queue_jobs", help: "Pages in the shared scrape queue by state (waiting, active, delayed)",
    labelNames: ["state"] as const, registers,
    async collect() {
      const counts = await queue.getJobCounts("waiting", "active", "delayed");
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    },
  });
  return {
    registry,
    page: (outcome: "ok" | "failed" | "error", rendered: boolean) => pages.inc({ outcome, rendered: String(rendered) }),
  };
}
