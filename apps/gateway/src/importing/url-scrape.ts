import type { FastifyInstance } from "fastify";
import { ServiceError, invalid, type ImportItem } from "@catalog/db";
import type { ProductCandidate } from "@catalog/extract";
import {
  BlockedUrlError,
  InvalidUrlError,
  checkPublicUrl,
  type UrlPolicy,
} from "@catalog/fetch/url-guard";
import { SCRAPE_JOB, type ScrapeResult } from "@catalog/queue";
import { toImportItem } from "./candidate.js";
import { fitPageRead } from "./page-read-bounds.js";

/** The gateway's scrape queue and its events (plugins/queues.ts). */
export type ScrapeQueues = Pick<FastifyInstance["queues"], "scrape" | "scrapeEvents">;

/**
 * Every URL is checked before any is fetched: refused URLs refuse the request, a 422 naming each
 * one ("urls[1]: … is a multicast address; …; urls[4]: …"), so a client can point at every line
 * to fix at once.
 */
export async function checkUrls(urls: string[], policy: UrlPolicy): Promise<void> {
  const checks = await Promise.allSettled(urls.map((url) => checkPublicUrl(url, policy)));
  const refused: string[] = [];
  checks.forEach((check, i) => {
    if (check.status === "fulfilled") return;
    const error = check.reason as Error;
    if (error instanceof BlockedUrlError || error instanceof InvalidUrlError)
      refused.push(`urls[${i}]: ${error.message}`);
    // A name that does not resolve is the page's problem, reported per item once the worker tries
    // it.
  });
  if (refused.length > 0) throw invalid(refused.join("; "));
}

/**
 * Hands the URLs to the import workers and waits for them with one overall deadline: an
 * outcome per URL, a page that did not answer in time being a failed one. The waits end early
 * when `signal` aborts (the jobs are left to finish on their own).
 */
export async function scrapeUrls(
  queues: ScrapeQueues,
  urls: string[],
  requestId: string,
  deadlineMs: number,
  signal?: AbortSignal,
): Promise<ScrapeResult[]> {
  const jobs = await queues.scrape
    .addBulk(urls.map((url) => ({ name: SCRAPE_JOB, data: { url, requestId } })))
    .catch(() => {
      throw new ServiceError(503, "the import queue is unavailable right now; try again shortly");
    });
  const deadline = Date.now() + deadlineMs;
  let onAbort: (() => void) | undefined;
  const stopped = signal
    ? new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason as Error);
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      })
    : null;
  stopped?.catch(() => {});
  const results = Promise.all(
    jobs.map(async (job): Promise<ScrapeResult> => {
      try {
        const finished = job.waitUntilFinished(
          queues.scrapeEvents,
          Math.max(1, deadline - Date.now()),
        );
        return await (stopped ? Promise.race([finished, stopped]) : finished);
      } catch (error) {
        signal?.throwIfAborted();
        await job.remove().catch(() => {});
        const timedOut = /timed out|ttl/i.test((error as Error).message);
        return {
          ok: false,
          error: timedOut
            ? `no answer within ${Math.round(deadlineMs / 1000)} s`
            : (error as Error).message,
        };
      }
    }),
  );
  try {
    return await results;
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/** A worker's result for one URL as an import item, or why it cannot be one. */
export function importItemOf(result: ScrapeResult, url: string): ImportItem | { error: string } {
  if (!result.ok) return { error: result.error };
  const candidate = fitPageRead(result.candidate as ProductCandidate);
  candidate.sourceUrl ??= url;
  const item = toImportItem(candidate);
  return "error" in item ? { error: `${item.error} on ${url}` } : item;
}
