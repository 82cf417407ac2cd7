import type { HistoryEntry } from "@catalog/gateway/api-types";
import { formatDateTime, formatRelative } from "../../ui/format";
import { ACTION_LABELS } from "./history-values";
import { useActorLabel } from "./useHistory";

/** "imported 3 days ago": where a field's current value came from. */
export function Origin({ entry }: { entry: HistoryEntry | undefined }) {
  const actorLabel = useActorLabel();
  if (!entry) return null;
  const verb =
    entry.action === "imported" ? "imported" : entry.action === "created" ? "created" : "edited";
  return (
    <span
      className="origin"
      title={`${ACTION_LABELS[entry.action] ?? entry.action} by ${actorLabel(entry.actor)}, ${formatDateTime(entry.at)}`}
    >
      {verb}
      {entry.action === "updated" ? ` by ${actorLabel(entry.actor)}` : ""}{" "}
      {formatRelative(entry.at)}
    </span>
  );
}
