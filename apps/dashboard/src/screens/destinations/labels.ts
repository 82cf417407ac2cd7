// A destination's state in words: health, breaker, queue counts, what disconnecting drops.
import type { Destination } from "@catalog/gateway/api-types";

export { breakerLabel } from "../../ui/destination-state";

export const QUEUE_KEYS = ["waiting", "active", "delayed", "failed", "dead"] as const;
export const QUEUE_LABELS: Record<(typeof QUEUE_KEYS)[number], string> = {
  waiting: "Waiting",
  active: "Publishing",
  delayed: "Delayed",
  failed: "Failed",
  dead: "Gave up",
};

/** What disconnecting drops from the queue, in the confirmation. */
export function queuedDropText(queue: Destination["queue"] | undefined): string {
  const queued = queue ? queue.waiting + queue.delayed + queue.active : 0;
  return queued > 0
    ? `The ${queued} publishes still queued for this store are dropped.`
    : "Publishes still queued for this store are dropped.";
}

/** "Connect an eBay store", "Connect a Shopify store": the connect form's name. */
export function connectFormLabel(displayName: string): string {
  return `Connect ${/^[aeiou]/i.test(displayName) ? "an" : "a"} ${displayName} store`;
}
