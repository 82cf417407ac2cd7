import type { PublishRun } from "@catalog/gateway/api-types";
import { useChannelName } from "../../api/queries";
import { useNow } from "../../ui/clock";
import { holdsOf, needsClock } from "../../ui/destination-state";

/**
 * Per destination: disconnected, a channel's wait or an open breaker, with a live countdown
 * (re-rendered alone every second).
 */
export function DestinationNotices({ destinations }: { destinations: PublishRun["destinations"] }) {
  const channelName = useChannelName();
  const now = useNow(needsClock(destinations));
  const notices = destinations.flatMap((d) => [
    ...(d.disconnected
      ? [
          {
            key: `${d.id}-gone`,
            name: d.name,
            text: "Disconnected after this run started: its remaining publishes were dropped",
            tone: "bad" as const,
          },
        ]
      : []),
    ...holdsOf(d, now, channelName).map((h) => ({
      key: `${d.id}-${h.kind}`,
      name: d.name,
      text: h.text,
      tone:
        h.kind === "wait"
          ? ("warn" as const)
          : h.kind === "breaker"
            ? ("bad" as const)
            : ("info" as const),
    })),
  ]);
  return (
    <>
      {notices.map((n) => (
        <div key={n.key} className={`alert alert-${n.tone}`} role="status">
          <p>
            <strong>{n.name}:</strong> {n.text}.
          </p>
        </div>
      ))}
    </>
  );
}
