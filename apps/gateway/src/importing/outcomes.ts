import {
  importRowOutcome,
  type FieldChanges,
  type ImportOutcome,
  type ProductView,
} from "@catalog/db";
import { importRows } from "../metrics.js";
import type { DroppedImage } from "./image-screen.js";

export type ItemResult =
  | {
      ok: true;
      action: "preview" | "created" | "updated";
      wouldBe?: "created" | "updated";
      existingId?: string | null;
      changes: FieldChanges;
      product: ProductView;
      droppedImages?: DroppedImage[];
    }
  | { ok: false; error: string };

/** The answer for one imported item; `droppedImages` only when the image screen left some out. */
export function itemOf(outcome: ImportOutcome, droppedImages: DroppedImage[] = []): ItemResult {
  const dropped = droppedImages.length > 0 ? { droppedImages } : {};
  if (outcome.action === "preview") {
    const { action, wouldBe, existingId, changes, product } = outcome;
    return { ok: true, action, wouldBe, existingId, changes, product, ...dropped };
  }
  return {
    ok: true,
    action: outcome.action,
    changes: outcome.changes,
    product: outcome.product,
    ...dropped,
  };
}

/**
 * Counts for the answer (in a preview, created and updated say what persisting would do), and
 * each item in catalog_import_rows_total with the outcomes an import's preview rows have.
 */
export class Tally {
  readonly summary = { requested: 0, succeeded: 0, failed: 0, created: 0, updated: 0 };

  constructor(private readonly source: "scrape" | "document") {}

  add(item: ItemResult): void {
    this.summary.requested += 1;
    if (!item.ok) {
      this.summary.failed += 1;
      importRows.inc({ source: this.source, outcome: "error" });
      return;
    }
    this.summary.succeeded += 1;
    const created = (item.wouldBe ?? item.action) === "created";
    if (created) this.summary.created += 1;
    else this.summary.updated += 1;
    importRows.inc({ source: this.source, outcome: importRowOutcome(created, item.changes) });
  }
}

export function summarise(items: ItemResult[], source: "scrape" | "document") {
  const tally = new Tally(source);
  items.forEach((item) => tally.add(item));
  return tally.summary;
}
