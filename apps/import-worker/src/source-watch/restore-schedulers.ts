import type { Queue } from "bullmq";
import { listWatchedProducts, recordNextSourceCheck, type Db } from "@catalog/db/source-watch";
import {
  WATCH_EVERY_MS,
  scheduleSourceWatch,
  watchSchedulerId,
  type SourceCheckJob,
} from "@catalog/queue";

const PAGE = 500;

/**
 * Makes Redis's schedulers match PostgreSQL, the record: every watched product gets its scheduler
 * (a missing one, after a flush or a Redis without persistence, or one with another interval),
 * and a scheduler whose product is no longer watched is removed. Run when an import worker
 * starts; idempotent, so several starting at once agree. Returns what it changed.
 */
export async function restoreSourceWatches(
  db: Db,
  queue: Queue<SourceCheckJob>,
): Promise<{ created: number; removed: number }> {
  const watched = new Set<string>();
  let created = 0;
  let after: string | null = null;
  for (;;) {
    const page = await listWatchedProducts(db, after, PAGE);
    for (const product of page) {
      watched.add(watchSchedulerId(product.id));
      const existing = await queue.getJobScheduler(watchSchedulerId(product.id));
      if (existing?.every === WATCH_EVERY_MS[product.watchSchedule]) continue;
      const next = await scheduleSourceWatch(queue, product.id, product.watchSchedule);
      await recordNextSourceCheck(db, product.id, next);
      created += 1;
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  let removed = 0;
  for (const scheduler of await queue.getJobSchedulers(0, -1)) {
    if (scheduler.key && !watched.has(scheduler.key)) {
      await queue.removeJobScheduler(scheduler.key);
      removed += 1;
    }
  }
  return { created, removed };
}
