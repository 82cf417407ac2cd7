import type { Db } from "../client.js";
import type { ProductSource } from "../generated/enums.js";
import { importInOneTransaction, type ImportItem } from "../product-import.js";
import type { SyncCollector } from "../sync/change-syncs.js";
import type { Actor } from "../products.js";
import { conflict } from "../service-error.js";
import { recordWebhookEvent } from "../webhooks/webhook-events.js";
import {
  ImportStopped,
  importStatus,
  startPhase,
  toImportView,
  type ImportView,
} from "./import-records.js";

export type StoreResult = NonNullable<ImportView["result"]>;

/**
 * Moves a ready import to storing and marks the rows the user left out. Row numbers that name
 * no row (or an error row, which is never stored) are ignored. 409 unless the import is ready.
 */
export async function beginStore(
  db: Db,
  orgId: string,
  id: string,
  skipRows: number[],
): Promise<ImportView> {
  const status = await importStatus(db, orgId, id);
  if (status !== "ready")
    throw conflict(`the import is ${status}; only a ready import can be stored`);
  const storable = await db.$transaction(async (tx) => {
    const { count } = await tx.import.updateMany({
      where: { id, orgId, status: "ready" },
      data: { status: "storing", error: null },
    });
    if (count === 0)
      throw conflict("the import is already being stored, or changed meanwhile; look at it again");
    const skipped =
      skipRows.length === 0
        ? 0
        : await tx.$executeRaw`UPDATE import_rows SET skipped = true
      WHERE import_id = ${id}::uuid AND outcome <> 'error' AND row = ANY(${[...new Set(skipRows)]}::int[])`;
    await tx.import.update({ where: { id }, data: { countSkipped: skipped } });
    return tx.importRow.count({
      where: { importId: id, outcome: { not: "error" }, skipped: false },
    });
  });
  await startPhase(db, id, "storing", storable);
  return toImportView(await db.import.findUniqueOrThrow({ where: { id } }));
}

export interface StoreOptions {
  actor: Actor;
  source: ProductSource;
  timeoutMs: number;
  batchRows: number;
  signal: AbortSignal;
  /**
   * Called after each batch with the rows written so far (outside the transaction, so readers see
   * it move).
   */
  onBatch(done: number): Promise<void>;
  /** Collects the automatic syncs of the products it updates (see ImportOptions.sync). */
  sync?: SyncCollector;
}

/**
 * Stores the previewed items of a storing import (not a fresh fetch), minus the skipped rows,
 * in one transaction with their history entries, each row's `stored` outcome and the import's
 * `stored` status and result: a failure anywhere, or an abort, leaves the catalog and the
 * import's rows as they were.
 */
export async function storeImport(
  db: Db,
  orgId: string,
  id: string,
  options: StoreOptions,
): Promise<StoreResult> {
  return importInOneTransaction(
    db,
    orgId,
    {
      actor: options.actor,
      source: options.source,
      persist: true,
      timeoutMs: options.timeoutMs,
      ...(options.sync ? { sync: options.sync } : {}),
    },
    async (importBatch, tx) => {
      if (!tx) throw new Error("storing needs a transaction");
      const tally = { created: 0, updated: 0, unchanged: 0 };
      let afterSeq = -1;
      let done = 0;
      for (;;) {
        const rows = await tx.importRow.findMany({
          where: { importId: id, seq: { gt: afterSeq }, outcome: { not: "error" }, skipped: false },
          orderBy: { seq: "asc" },
          take: options.batchRows,
          select: { seq: true, item: true },
        });
        if (rows.length === 0) break;
        const outcomes = await importBatch(rows.map((r) => r.item as unknown as ImportItem));
        const stored = outcomes.map((o) =>
          o.action === "created"
            ? "created"
            : Object.keys(o.changes).length > 0
              ? "updated"
              : "unchanged",
        );
        for (const action of stored) tally[action] += 1;
        await tx.$executeRaw`UPDATE import_rows AS r SET stored = v.stored::"ImportStoredAction", stored_product_id = v.product_id
        FROM unnest(${rows.map((r) => r.seq)}::int[], ${stored}::text[], ${outcomes.map((o) => o.product.id)}::uuid[]) AS v(seq, stored, product_id)
        WHERE r.import_id = ${id}::uuid AND r.seq = v.seq`;
        done += rows.length;
        afterSeq = rows.at(-1)!.seq;
        await options.onBatch(done);
        options.signal.throwIfAborted();
      }
      const { countSkipped, name, kind } = await tx.import.findUniqueOrThrow({
        where: { id },
        select: { countSkipped: true, name: true, kind: true },
      });
      const result: StoreResult = { ...tally, skipped: countSkipped };
      const { count } = await tx.import.updateMany({
        where: { id, status: "storing" },
        data: { status: "stored", result, done, leaseUntil: null },
      });
      if (count === 0) throw new ImportStopped();
      await recordWebhookEvent(tx, {
        orgId,
        type: "import.finished",
        data: { importId: id, name, kind, result },
      });
      return result;
    },
  );
}
