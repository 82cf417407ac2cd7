import {
  importProducts,
  type Actor,
  type Db,
  type ImportItem,
  type SyncCollector,
} from "@catalog/db";
import type { UrlPolicy } from "@catalog/fetch/url-guard";
import { createImageScreen } from "./image-screen.js";
import { itemOf, summarise, type ItemResult } from "./outcomes.js";
import { checkUrls, importItemOf, scrapeUrls, type ScrapeQueues } from "./url-scrape.js";

export interface UrlImportRequest {
  orgId: string;
  actor: Actor;
  urls: string[];
  persist: boolean;
  requestId: string;
  policy: UrlPolicy;
  deadlineMs: number;
  /** Collects the automatic syncs of updated products (enqueued by the caller after commit). */
  sync?: SyncCollector;
}

/**
 * Hands the URLs to the import workers and waits for them with one overall deadline, so a
 * preview of 50 pages answers in bounded time with an outcome per URL; then previews or
 * persists the products found, in one batch.
 */
export async function importUrls(
  deps: { db: Db; queues: ScrapeQueues },
  request: UrlImportRequest,
) {
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
    const outcomes = await importProducts(
      db,
      request.orgId,
      importable.map((i) => i.item),
      {
        actor: request.actor,
        source: "scrape",
        persist: request.persist,
        ...(request.sync ? { sync: request.sync } : {}),
      },
    );
    outcomes.forEach((outcome, i) => {
      items[importable[i]!.index] = itemOf(outcome, dropped[i]);
    });
  }
  return {
    persisted: request.persist,
    items: items.map((item, i) => ({ url: request.urls[i]!, ...item })),
    summary: summarise(items, "scrape"),
  };
}
