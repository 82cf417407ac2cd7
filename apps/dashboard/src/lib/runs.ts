// What the publish run screens share: the states a run's jobs go through and their labels.
import type { PublishRunSummary } from "@catalog/gateway/api-types";
import { countOf } from "../ui/format";

export const RUN_STATES = ["queued", "running", "succeeded", "failed", "dead"] as const;
export const RUN_STATE_LABELS: Record<(typeof RUN_STATES)[number], string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Published",
  failed: "Failed",
  dead: "Gave up",
};

/** Every job of the run, whatever its state. */
export function runTotal(c: PublishRunSummary["counts"]): number {
  return c.queued + c.running + c.succeeded + c.failed + c.dead;
}

type RunHead = Pick<
  PublishRunSummary,
  "productCount" | "destinationCount" | "firstProductTitle" | "destinationNames" | "createdBy"
>;

/** What a run published: "Linen apron" or "Linen apron and 2 more". */
export function runProducts(r: RunHead): string {
  if (!r.firstProductTitle) return countOf(r.productCount, "product");
  return r.productCount > 1
    ? `${r.firstProductTitle} and ${r.productCount - 1} more`
    : r.firstProductTitle;
}

/** Where to: "Harbour shop", "Harbour shop and Quay store", "Harbour shop, Quay store and 2 more". */
export function runStores(r: RunHead): string {
  const names = r.destinationNames.slice(0, 2);
  const more = r.destinationCount - names.length;
  if (names.length === 0) return countOf(r.destinationCount, "store");
  if (more > 0) return `${names.join(", ")} and ${more} more`;
  return names.join(" and ");
}

/** A run's name, what tells it from the others: "Linen apron and 2 more to Harbour shop". */
export const runName = (r: RunHead) => `${runProducts(r)} to ${runStores(r)}`;

/** Who started it, seen by the user `selfId`: "you", their email, "the service". */
export function runStarter(r: RunHead, selfId: string): string {
  const by = r.createdBy;
  if (by.type === "user") return by.id === selfId ? "you" : (by.name ?? "a former member");
  if (by.type === "apiKey") return by.name ? `the key “${by.name}”` : "an extension key";
  return "the service";
}
