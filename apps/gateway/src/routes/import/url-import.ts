import type { FastifyInstance } from "fastify";
import { ServiceError, importProducts, invalid, type Actor, type Db, type ImportItem } from "@catalog/db";
import type { ProductCandidate } from "@catalog/extract";
import { BlockedUrlError, InvalidUrlError, checkPublicUrl, type UrlPolicy } from "@catalog/fetch/url-guard";
import { SCRAPE_JOB, type ScrapeResult } from "@catalog/queue";
import { toImportItem } from "./candidate.js";
import { createImageScreen } from "./image-screen.js";
import { itemOf, summarise, type ItemResult } from "./outcomes.js";

export interface UrlImportRequest {
  orgId: string;
  actor: Actor;
  urls: string[];
  persist: boolean;
  requestId: string;
  policy: UrlPolicy;
  deadlineMs: number;
}

/** Every URL is checked before any is fetched: one refused URL refuses the request (422 naming it). */
export async function checkUrls(urls: string[], policy: UrlPolicy): Promise<void> {
  const checks = await Promise.allSettled(urls.map((url) => checkPublicUrl(url, policy)));
  checks.forEach((check, i) => {
    if (check.status === "fulfilled") return;
    const error = check.reason as Error;
    if (error instanceof BlockedUrlError || error instanceof InvalidUrlError) throw invalid(`urls[${i}]: ${error.message}`);
    // A name that does not resolve is the page's problem, reported per item once the worker tries it.
  });
}

/**
 * Hands the URLs to the import workers and waits for them with one overall deadline: an
 * outcome per URL, a page that did not answer in time being a failed one. The waits end early
 * when `signal` aborts (the jobs are left to finish on their own).
 */
export async function scrapeUrls(
  queues: FastifyInstance["queues"], urls: string[], requestId: string, deadlineMs: number, signal?: AbortSignal,
): Promise<ScrapeResult[]> {
  const jobs = await queues.scrape
    .addBulk(urls.map((url) => ({ name: SCRAPE_JOB, data: { url, requestId } })))
    .catch(() => {
      throw new ServiceError(503, "the import queue is unavailable right now; try again shortly");
    });
  const deadline = Date.now() + deadlineMs;
  let onAbort: (() => void) | undefined;
  const stopped = signal ? new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  }) : null;
  stopped?.catch(() => {});
  const results = Promise.all(jobs.map(async (job): Promise<ScrapeResult> => {
    try {
      const finished = job.waitUntilFinished(queues.scrapeEvents, Math.max(1, deadline - Date.now())) as Promise<ScrapeResult>;
      return await (stopped ? Promise.race([finished, stopped]) : finished);
    } catch (error) {
      signal?.throwIfAborted();
      await job.remove().catch(() => {});
      const timedOut = /timed out|ttl/i.test((error as Error).message);
      return { ok: false, error: timedOut ? `no answer within ${Math.round(deadlineMs / 1000)} s` : (error as Error).message };
    }
  }));
  try {
    return await results;
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/** A worker's result for one URL as an import item, or why it cannot be one. */
export function importItemOf(result: ScrapeResult, url: string): ImportItem | { error: string } {
  if (!result.ok) return { error: result.error };
  const candidate = { ...(result.candidate as ProductCandidate) };
  candidate.sourceUrl ??= url;
  const item = toImportItem(candidate);
  return "error" in item ? { error: `${item.error} on ${url}` } : item;
}

/**
 * Hands the URLs to the import workers and waits for them with one overall deadline, so a
 * preview of 50 pages answers in bounded time with an outcome per URL; then previews or
 * persists the products found, in one batch.
 */
export async function importUrls(deps: { db: Db; queues: FastifyInstance["queues"] }, request: UrlImportRequest) {
  const { db, queues } = deps;
  await checkUrls(request.urls, request.policy);
  const results = await scrapeUrls(queues, request.urls, request.requestId, request.deadlineMs);

  const items = new Array<ItemResult>(results.length);
  const importable: { index: number; item: ImportItem }[] = [];
  results.forEach((r, index) => {
    const item = importItemOf(r, request.urls[index]!);
    if ("error" in item) items[index] = { ok: false, error: item.error };
    else importable.push({ index, item });
  });
  if (importable.length > 0) {
    const screenImages = createImageScreen(request.policy);
    const dropped = await Promise.all(importable.map((i) => screenImages(i.item)));
    const outcomes = await importProducts(db, request.orgId, importable.map((i) => i.item), {
      actor: request.actor, source: "scrape", persist: request.persist,
    });
    outcomes.forEach((outcome, i) => { items[importable[i]!.index] = itemOf(outcome, dropped[i]); });
  }
  return {
    persisted: request.persist,
    items: items.map((item, i) => ({ url: request.urls[i]!, ...item })),
    summary: summarise(items, "scrape"),
  };
}
