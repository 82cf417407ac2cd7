// What the publish run screens share: the states a run's jobs go through and their labels.
import type { PublishRunSummary } from "@catalog/gateway/api-types";

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
