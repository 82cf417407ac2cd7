// The sync logs of a page grouped as a merchant thinks of them (by the publish run they belong
// to), and the words for their states and kinds.
import type { SyncLog } from "@catalog/gateway/api-types";

export interface SyncLogGroup {
  /** The run's id; null for automatic updates and ends, which belong to no run. */
  runId: string | null;
  items: SyncLog[];
  /** Entries that did not go through (failed or gave up). */
  failed: number;
}

/**
 * Consecutive entries of the same run (or of no run) as one group, in the list's order (newest
 * first). A run whose entries are split by another's (a retry later on) makes two groups.
 */
export function groupByRun(items: SyncLog[]): SyncLogGroup[] {
  const groups: SyncLogGroup[] = [];
  for (const item of items) {
    const last = groups.at(-1);
    const group =
      last && last.runId === item.runId
        ? last
        : (groups[groups.push({ runId: item.runId, items: [], failed: 0 }) - 1] as SyncLogGroup);
    group.items.push(item);
    if (isFailure(item.status)) group.failed += 1;
  }
  return groups;
}

export const isFailure = (status: SyncLog["status"]) => status === "failed" || status === "dead";

/** "12 entries · 3 failed" */
export function groupCounts(group: SyncLogGroup): string {
  const n = group.items.length;
  const entries = `${n} ${n === 1 ? "entry" : "entries"}`;
  return group.failed > 0 ? `${entries} · ${group.failed} failed` : entries;
}

/** The dashboard's status filter: one API state, or "failures" for every one that did not go through. */
export const FAILURES = "failures";

export function statusQuery(status: string | undefined): string | string[] | undefined {
  return status === FAILURES ? ["failed", "dead"] : status;
}

export const STATUS_LABELS: Record<SyncLog["status"], string> = {
  queued: "Queued",
  running: "Sending",
  succeeded: "Done",
  failed: "Failed",
  dead: "Gave up",
};
export const STATUS_HELP: Record<SyncLog["status"], string> = {
  queued: "waiting for its turn",
  running: "being sent to the store",
  succeeded: "the store has it",
  failed: "an attempt failed; it is tried again unless the store was disconnected",
  dead: "gave up after the last attempt; an operator can try it again",
};
export const KIND_LABELS: Record<SyncLog["kind"], string> = {
  publish: "Publish",
  update: "Automatic update",
  end: "End listing",
};
