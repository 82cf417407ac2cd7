import type { Job } from "bullmq";
import { parseScrapeJob, type ScrapeJob, type ScrapeResult } from "@catalog/queue";
import { readProductPage, type PageReaderDeps } from "./page-reader.js";

export type ScrapeDeps = PageReaderDeps;

/**
 * Static fetch and extraction first; Chromium only when the static HTML shows no product.
 * Failures are results (`ok: false` with a reason the merchant can act on), not thrown, so
 * one bad page never fails the import it belongs to.
 */
export function createScrapeProcessor(deps: ScrapeDeps) {
  return async (job: Job<ScrapeJob, ScrapeResult>): Promise<ScrapeResult> => {
    const { url } = parseScrapeJob(job.data);
    try {
      const page = await readProductPage(url, deps);
      if (!page.found) return { ok: false, error: page.error };
      return {
        ok: true,
        finalUrl: page.finalUrl,
        rendered: page.rendered,
        candidate: page.candidate,
      };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  };
}
