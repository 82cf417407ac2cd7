import type { PublishRun } from "@catalog/gateway/api-types";
import { StatusBadge } from "../../ui/StatusBadge";
import { formatDateTime, countOf } from "../../ui/format";
import { RUN_STATE_LABELS } from "../../lib/runs";

export type Cell = PublishRun["cells"][number];

export function CellBadge({ cell: c }: { cell: Cell }) {
  const title = [
    RUN_STATE_LABELS[c.status],
    c.attempts > 0 ? countOf(c.attempts, "attempt") : null,
    c.error,
    c.finishedAt ? `at ${formatDateTime(c.finishedAt)}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
  const badge = <StatusBadge status={c.status} label={RUN_STATE_LABELS[c.status]} title={title} />;
  if (c.status === "succeeded" && c.remoteUrl) {
    return (
      <a
        href={c.remoteUrl}
        target="_blank"
        rel="noreferrer noopener"
        className="cell-link"
        title={`${title} · open the listing`}
      >
        {badge}
      </a>
    );
  }
  return <span className="cell-state">{badge}</span>;
}
