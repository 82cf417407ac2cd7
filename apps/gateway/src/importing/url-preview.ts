import {
  finishPreview,
  recordPreviewBatch,
  retryWhileDatabaseUnavailable,
  startPhase,
  type Actor,
  type Db,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { createImageScreen } from "./image-screen.js";
import { importItemOf, scrapeUrls, type ScrapeQueues } from "./url-scrape.js";
import { previewEntries, type PreviewEntry } from "./preview-rows.js";

/**
 * URLs handed to the import workers at a time. Each window has the synchronous route's deadline
 * from the moment it is enqueued, so a long list does not time out pages that merely waited
 * their turn, and progress moves a window at a time.
 */
const WINDOW = 25;

export interface UrlPreviewRequest {
  db: Db;
  queues: ScrapeQueues;
  orgId: string;
  importId: string;
  actor: Actor;
  urls: string[];
  requestId: string;
  deadlineMs: number;
  policy: UrlPolicy;
}

/**
 * Fetches and extracts each URL through the import workers (the same path as /api/import/url:
 * its fetch rules, extraction and image screen), previews the products against the catalog,
 * and records a row per URL (row = its position, from 1). Nothing is stored in the catalog.
 * The URLs were checked against the URL policy before the import was created. A database
 * outage is waited out at the step it stopped, so the pages already fetched are not fetched again.
 */
export async function previewUrls(request: UrlPreviewRequest, signal: AbortSignal): Promise<void> {
  const { db, importId, urls } = request;
  const retry = <T>(step: () => Promise<T>) => retryWhileDatabaseUnavailable(step, signal);
  await retry(() => startPhase(db, importId, "previewing", urls.length));
  const screenImages = createImageScreen(request.policy);
  for (let start = 0; start < urls.length; start += WINDOW) {
    const window = urls.slice(start, start + WINDOW);
    const results = await scrapeUrls(
      request.queues,
      window,
      request.requestId,
      request.deadlineMs,
      signal,
    );
    const entries = results.map((result, i): PreviewEntry => {
      const at = { row: start + i + 1, url: window[i]! };
      const item = importItemOf(result, window[i]!);
      return "error" in item ? { at, error: item.error } : { at, item };
    });
    const rows = await retry(() =>
      previewEntries(
        db,
        request.orgId,
        { actor: request.actor, source: "scrape" },
        screenImages,
        entries,
      ),
    );
    await retry(() => recordPreviewBatch(db, importId, start, rows));
    signal.throwIfAborted();
  }
  await retry(() => finishPreview(db, importId));
}
