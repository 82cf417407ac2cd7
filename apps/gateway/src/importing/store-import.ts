import type { Queue } from "bullmq";
import {
  beginStore,
  recordNextSourceCheck,
  watchImportedProducts,
  discardImport,
  failImport,
  storeImport,
  updateOwnedImport,
  type Db,
  type ImportView,
  type SyncCollector,
} from "@catalog/db";
import { scheduleSourceWatch, type SourceCheckJob } from "@catalog/queue";
import { holdHeapGrowthLimit } from "../heap-growth.js";
import type { Acting } from "../plugins/auth.js";
import type { ImportTasks } from "./import-tasks.js";

/**
 * A store is one transaction; a 100,000-row document takes minutes, so it may hold it this long.
 */
const STORE_TRANSACTION_MS = 15 * 60_000;
const STORE_BATCH_ROWS = 500;

export interface StoreImportDeps {
  db: Db;
  tasks: ImportTasks;
  /** Tells every gateway's read caches that the org's catalog changed (after the commit). */
  catalogChanged(orgId: string): Promise<void>;
  /** Enqueues the automatic syncs a committed store planned. */
  enqueueSyncs(orgId: string, sync: SyncCollector): Promise<void>;
  /** Where the stored products' watch schedulers go, for an import that asked for a watch. */
  sourceWatch: Queue<SourceCheckJob>;
}

/**
 * The products a stored import asked to watch get their schedule (PostgreSQL) and their schedulers
 * (Redis; an import worker that starts makes any missing ones again from PostgreSQL).
 */
async function watchStored(deps: StoreImportDeps, importId: string): Promise<void> {
  for (const product of await watchImportedProducts(deps.db, importId)) {
    const next = await scheduleSourceWatch(deps.sourceWatch, product.id, product.watchSchedule);
    await recordNextSourceCheck(deps.db, product.id, next);
  }
}

/**
 * Starts storing a ready import in the background: exactly the previewed items (read back from
 * its rows, nothing fetched or read again), minus `skipRows`, in one transaction. Answers the
 * import, status storing; if the background refuses the work (the gateway is closing), the
 * import is failed at once rather than when its lease runs out.
 */
export async function startStoreImport(
  deps: StoreImportDeps,
  acting: Pick<Acting, "orgId" | "actor">,
  importId: string,
  skipRows: number[],
): Promise<ImportView> {
  const { db, tasks } = deps;
  const { orgId, actor } = acting;
  const view = await beginStore(db, orgId, importId, skipRows);
  try {
    tasks.start({
      importId: view.id,
      status: "storing",
      failurePrefix: "storing failed, nothing was stored: ",
      work: async (signal) => {
        const sync: SyncCollector = { by: `import ${view.name}`, records: [] };
        // Storing makes garbage as fast as reading a document does (heap-growth.ts).
        const releaseHeapLimit = holdHeapGrowthLimit();
        try {
          await storeImport(db, orgId, view.id, {
            actor,
            source: view.kind === "document" ? "document" : "scrape",
            timeoutMs: STORE_TRANSACTION_MS,
            batchRows: STORE_BATCH_ROWS,
            signal,
            sync,
            onBatch: async (done) => {
              await updateOwnedImport(db, view.id, "storing", { done });
            },
          });
        } finally {
          releaseHeapLimit();
        }
        // Committed: every gateway's cached catalog pages must drop it.
        await deps.catalogChanged(orgId);
        await deps.enqueueSyncs(orgId, sync);
        await watchStored(deps, view.id);
      },
    });
  } catch (error) {
    await failImport(
      db,
      view.id,
      `storing failed, nothing was stored: ${(error as Error).message}`,
    );
    throw error;
  }
  return view;
}

/** Drops an import's preview (its rows) and stops the preview if this gateway is running it. */
export async function discardImportPreview(
  deps: Pick<StoreImportDeps, "db" | "tasks">,
  orgId: string,
  importId: string,
): Promise<void> {
  await discardImport(deps.db, orgId, importId);
  deps.tasks.abort(importId);
}
