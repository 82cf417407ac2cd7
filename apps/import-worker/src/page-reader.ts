import { extractProduct, type ProductCandidate } from "@catalog/extract";
import { fetchPublic, type Renderer, type UrlPolicy } from "@catalog/fetch";

export interface PageReaderDeps {
  policy: UrlPolicy;
  /** Chromium, for pages whose static HTML shows no product; null when the fallback is off. */
  renderer: Renderer | null;
  fetchTimeoutMs: number;
  renderTimeoutMs: number;
  maxBytes: number;
}

export type ProductPage =
  | { found: true; finalUrl: string; rendered: boolean; candidate: ProductCandidate }
  | { found: false; error: string };

/**
 * A page's product: static fetch and extraction first, Chromium only when the static HTML shows
 * none. A page that cannot be fetched throws @catalog/fetch's error (FetchFailedError carries the
 * status); one that shows no product is `found: false`. Imports and source re-checks both read
 * pages this way.
 */
export async function readProductPage(url: string, deps: PageReaderDeps): Promise<ProductPage> {
  const page = await fetchPublic(url, {
    policy: deps.policy,
    timeoutMs: deps.fetchTimeoutMs,
    maxBytes: deps.maxBytes,
  });
  const candidate = extractProduct(page.body, page.finalUrl);
  if (candidate) return { found: true, finalUrl: page.finalUrl, rendered: false, candidate };
  if (!deps.renderer) return { found: false, error: `no product found on ${url}` };
  const rendered = await deps.renderer.render(page.finalUrl, { timeoutMs: deps.renderTimeoutMs });
  const fromBrowser = extractProduct(rendered.html, rendered.finalUrl);
  if (fromBrowser)
    return { found: true, finalUrl: rendered.finalUrl, rendered: true, candidate: fromBrowser };
  return {
    found: false,
    error: `no product found on ${url}, even after rendering it in a browser`,
  };
}
