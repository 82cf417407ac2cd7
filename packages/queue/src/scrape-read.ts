import { withDeadline } from "./probe.js";

/**
 * For metrics read from Redis when Prometheus scrapes: the gauges of one scrape are collected in
 * parallel and share one read, and a read that gets no answer within `timeoutMs` (Redis down: a
 * worker's connection waits for it to come back) fails, so the scrape answers with what it has.
 */
export function sharedScrapeRead<T>(read: () => Promise<T>, timeoutMs = 2000): () => Promise<T> {
  let reading: Promise<T> | null = null;
  return () =>
    (reading ??= withDeadline(read(), timeoutMs).finally(() => {
      reading = null;
    }));
}
