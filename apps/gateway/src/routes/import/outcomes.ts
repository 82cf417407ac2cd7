import type { FieldChanges, ImportOutcome, ProductView } from "@catalog/db";

export type ItemResult =
  | { ok: true; action: "preview" | "created" | "updated"; wouldBe?: "created" | "updated"; existingId?: string | null; changes: FieldChanges; product: ProductView }
  | { ok: false; error: string };

export function itemOf(outcome: ImportOutcome): ItemResult {
  if (outcome.action === "preview") {
    const { action, wouldBe, existingId, changes, product } = outcome;
    return { ok: true, action, wouldBe, existingId, changes, product };
  }
  return { ok: true, action: outcome.action, changes: outcome.changes, product: outcome.product };
}

/** Counts for the answer; in a preview, created and updated say what persisting would do. */
export function summarise(items: ItemResult[]) {
  const done = items.filter((i): i is Extract<ItemResult, { ok: true }> => i.ok);
  const kind = (i: (typeof done)[number]) => i.wouldBe ?? i.action;
  return {
    requested: items.length,
    succeeded: done.length,
    failed: items.length - done.length,
    created: done.filter((i) => kind(i) === "created").length,
    updated: done.filter((i) => kind(i) === "updated").length,
  };
}
