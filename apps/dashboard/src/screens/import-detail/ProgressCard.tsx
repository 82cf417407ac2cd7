import type { Import } from "@catalog/gateway/api-types";
import { formatTimeLeft } from "../../ui/clock";
import { ProgressBar } from "../../ui/ProgressBar";

/** While the import is read or stored: rows done of total, the bar and the time left. */
export function ProgressCard({ item }: { item: Import }) {
  const { done, total, etaSeconds } = item.progress;
  const storing = item.status === "storing";
  const left = formatTimeLeft(etaSeconds);
  const pct = total ? Math.floor((done / total) * 100) : null;
  return (
    <section className="card section progress-card" aria-label="Progress">
      <div className="card-body stack">
        <div className="progress-head">
          <h2>
            {storing
              ? "Storing products"
              : item.kind === "urls"
                ? "Reading the pages"
                : "Reading the file"}
          </h2>
          <span className="muted">{left ?? (total === null ? "Counting rows…" : "")}</span>
        </div>
        <ProgressBar
          value={done}
          max={total}
          label={storing ? "Storing progress" : "Preview progress"}
        />
        <p className="small muted progress-text">
          {done.toLocaleString()}
          {total !== null ? ` of ${total.toLocaleString()}` : ""}{" "}
          {item.kind === "urls" ? "pages" : "rows"} done
          {pct !== null ? ` (${pct}%)` : ""}.{" "}
          {storing ? "" : "Nothing is stored until you choose to. "}You can close this tab: the
          import keeps going, and you can open it again from the Import page.
        </p>
      </div>
    </section>
  );
}
