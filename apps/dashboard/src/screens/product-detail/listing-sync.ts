// What the product page says about a listing's automatic sync, from the API's listing fields.
import type { ProductDetail } from "@catalog/gateway/api-types";
import type { Tone } from "../../ui/StatusBadge";

type Listing = ProductDetail["listings"][number];

/** "In sync", "Update pending", "Sync failed: reason", "Ended (reason)"; null when not live. */
export function syncSummary(l: Listing): { text: string; tone: Tone } | null {
  if (l.status === "ended") return { text: `Ended (${l.endedReason ?? "ended"})`, tone: "muted" };
  if (l.status === "ending") return { text: "Ending on the store", tone: "info" };
  if (l.status !== "published" && !(l.status === "failed" && l.remoteId)) return null;
  if (l.syncState === "pending") return { text: "Update pending", tone: "info" };
  if (l.syncState === "failed")
    return { text: `Sync failed: ${l.syncError ?? "unknown reason"}`, tone: "bad" };
  return { text: "In sync", tone: "ok" };
}

/** Whether the page should follow the listing (a publish, an update or an end under way). */
export const listingBusy = (l: Listing) =>
  l.status === "queued" ||
  l.status === "publishing" ||
  l.status === "ending" ||
  l.syncState === "pending";
