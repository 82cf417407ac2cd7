import type { Job } from "bullmq";
import { extractProduct } from "@catalog/extract";
import { fetchPublic, type Renderer, type UrlPolicy } from "@catalog/fetch";
import { parseScrapeJob, type ScrapeJob, type ScrapeResult } from "@catalog/queue";

export interface ScrapeDeps {
  policy: UrlPolicy;
  /** Chromium, for pages whose static HTML shows no product; null when the fallback is off. */
  renderer: Renderer | null;
  fetchTimeoutMs: number;
  renderTimeoutMs: number;
  maxBytes: number;
}

/**
 * Static fetch and extraction first; Chromium only when the static HTML shows no product.
 * Failures are results (`ok: false` with a reason the merchant can act on), not thrown, so
 * one bad page never fails the import it belongs to.
 */
export function createScrapeProcessor(deps: ScrapeDeps) {
  return async (job: Job<ScrapeJob, ScrapeResult>): Promise<ScrapeResult> => {
    const { url } = parseScrapeJob(job.data);
    try {
      const page = await fetchPublic(url, {
        policy: deps.policy,
        timeoutMs: deps.fetchTimeoutMs,
        maxBytes: deps.maxBytes,
      });
      const candidate = extractProduct(page.body, page.finalUrl);
      if (candidate) return { ok: true, finalUrl: page.finalUrl, rendered: false, candidate };
      if (!deps.renderer) return { ok: false, error: `no product found on ${url}` };
      const rendered = await deps.renderer.render(page.finalUrl, {
        timeoutMs: deps.renderTimeoutMs,
      });
      const fromBrowser = extractProduct(rendered.html, rendered.finalUrl);
      if (fromBrowser)
        return { ok: true, finalUrl: rendered.finalUrl, rendered: true, candidate: fromBrowser };
      return {
        ok: false,
        error: `no product found on ${url}, even after rendering it in a browser`,
      };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  };
}
