// How an import's rows read in the preview: outcome filters and badges, what a row may do, an
// error as a sentence, a page address shortened to fit its cell.
import type { Import, ImportRow } from "@catalog/gateway/api-types";
import { countOf } from "../../ui/format";

export type Outcome = ImportRow["outcome"];

export const OUTCOMES: { key: Outcome; label: string }[] = [
  { key: "create", label: "New" },
  { key: "update", label: "Updates" },
  { key: "unchanged", label: "Unchanged" },
  { key: "error", label: "Errors" },
];
export const BADGE_LABEL: Record<Outcome, string> = {
  create: "New",
  update: "Update",
  unchanged: "Unchanged",
  error: "Error",
};
export const STORED_LABEL: Record<NonNullable<ImportRow["stored"]>, string> = {
  created: "Created",
  updated: "Updated",
  unchanged: "Unchanged",
};

/** The `outcome` search param as a filter; anything else shows every row. */
export function parseOutcome(raw: string | undefined): Outcome | undefined {
  return OUTCOMES.find((o) => o.key === raw)?.key;
}

/** Only new and updated rows can be stored or left out. */
export const selectable = (r: ImportRow): boolean =>
  r.outcome === "create" || r.outcome === "update";

/**
 * An error or warning from the gateway as a sentence; one that starts with an address is left as it
 * is.
 */
export const sentence = (t: string): string =>
  /^[a-z]+:\/\//i.test(t) ? t : t.charAt(0).toUpperCase() + t.slice(1);

/**
 * "shop.example/p/blue-mug?x=1" (no scheme, at most 70 characters); the text itself when it is no
 * URL.
 */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    const rest = `${u.pathname}${u.search}`;
    const text = `${u.host}${rest === "/" ? "" : rest}`;
    return text.length > 70 ? `${text.slice(0, 67)}…` : text;
  } catch {
    return url;
  }
}

/** The preview section's heading for the import's status. */
export function previewTitle(status: Import["status"]): string {
  return status === "stored"
    ? "What was stored"
    : status === "previewing"
      ? "Preview so far"
      : "Preview";
}

/** The store button's words for the rows that will be stored. */
export function storeLabel(toStore: number): string {
  return toStore === 0 ? "Nothing to store" : `Store ${countOf(toStore, "product")}`;
}

/** "2 images left out: not https, …" for a row whose images were dropped; null when none were. */
export function droppedImagesText(dropped: NonNullable<ImportRow["droppedImages"]>): string | null {
  const first = dropped[0];
  if (!first) return null;
  return `${countOf(dropped.length, "image")} left out: ${first.reason}${dropped.length > 1 ? ", …" : ""}`;
}

/**
 * The products that rows created or updated when stored (unchanged and left-out rows have none to
 * publish).
 */
export function storedProductIds(rows: ImportRow[]): string[] {
  return rows.flatMap((r) =>
    (r.stored === "created" || r.stored === "updated") && r.storedProductId
      ? [r.storedProductId]
      : [],
  );
}
