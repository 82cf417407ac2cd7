// An import's rows in one line of words, for the recent imports list.
import type { Import } from "@catalog/gateway/api-types";
import { countOf } from "../../ui/format";

const n = (x: number) => x.toLocaleString();

/** "12 created · 3 updated · 1 unchanged · 2 left out": what storing did. */
export function resultText(r: NonNullable<Import["result"]>): string {
  return `${n(r.created)} created · ${n(r.updated)} updated${r.unchanged ? ` · ${n(r.unchanged)} unchanged` : ""}${r.skipped ? ` · ${n(r.skipped)} left out` : ""}`;
}

/** "12 new · 3 updates · 1 error": what the preview found; "No rows" when it found none. */
export function countsText(c: Import["counts"]): string {
  const parts = [
    c.create ? `${n(c.create)} new` : null,
    c.update ? countOf(c.update, "update") : null,
    c.unchanged ? `${n(c.unchanged)} unchanged` : null,
    c.error ? countOf(c.error, "error") : null,
  ].filter((p) => p !== null);
  return parts.length ? parts.join(" · ") : "No rows";
}

/** "Web pages · prices in EUR when missing": how the import was started. */
export function kindText(item: Pick<Import, "kind" | "currency">): string {
  return `${item.kind === "urls" ? "Web pages" : "File"}${item.currency ? ` · prices in ${item.currency} when missing` : ""}`;
}
