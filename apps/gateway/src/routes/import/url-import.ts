import type { FastifyInstance } from "fastify";
import { ServiceError, importProducts, invalid, type Actor, type Db } from "@catalog/db";
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
async function checkAll(urls: string[], policy: UrlPolicy): Promise<void> {
  const checks = await Promise.allSettled(urls.map((url) => checkPublicUrl(url, policy)));
  checks.forEach((check, i) => {
    if (check.status === "fulfilled") return;
    const error = check.reason as Error;
    if (error instanceof BlockedUrlError || error instanceof InvalidUrlError) throw invalid(`urls[${i}]: ${error.message}`);
    // A name that does not resolve is the page's problem, reported per item once the worker tries it.
  });
}

/**
 * Hands the URLs to the import workers and waits for them with one overall deadline, so a
 * preview of 50 pages answers in bounded time with an outcome per URL; then previews or
 * persists the products found, in one batch.
 */
export async function importUrls(deps: { db: Db; queues: FastifyInstance["queues"] }, request: UrlImportRequest) {
  const { db, queues } = deps;
  await checkAll(request.urls, request.policy);
  const jobs = await queues.scrape
    .addBulk(request.urls.map((url) => ({ name: SCRAPE_JOB, data: { url, requestId: request.requestId } })))
    .catch(() => {
      throw new ServiceError(503, "the import queue is unavailable right now; try again shortly");
    });

  const deadline = Date.now() + request.deadlineMs;
  const results = await Promise.all(jobs.map(async (job): Promise<ScrapeResult> => {
    try {
      return await job.waitUntilFinished(queues.scrapeEvents, Math.max(1, deadline - Date.now()));
    } catch (error) {
      await job.remove().catch(() => {});
      const timedOut = /timed out|ttl/i.test((error as Error).message);
      return { ok: false, error: timedOut ? `no answer within ${Math.round(request.deadlineMs / 1000)} s` : (error as Error).message };
    }
  }));

  const items = new Array<ItemResult>(results.length);
  const importable: { index: number; item: Exclude<ReturnType<typeof toImportItem>, { error: string }> }[] = [];
  results.forEach((r, index) => {
    if (!r.ok) return void (items[index] = { ok: false, error: r.error });
    const candidate = { ...(r.candidate as ProductCandidate) };
    candidate.sourceUrl ??= request.urls[index] ?? null;
    const item = toImportItem(candidate);
    if ("error" in item) items[index] = { ok: false, error: `${item.error} on ${request.urls[index]}` };
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
    summary: summarise(items),
  };
}
