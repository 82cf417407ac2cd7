import { Link } from "@tanstack/react-router";
import type { ChannelInfo, Destination } from "@catalog/gateway/api-types";
import { useChannelName } from "../../api/queries";
import { breakerLabel, holdsOf, missingSettings } from "../../ui/destination-state";
import { HealthBadges } from "../../ui/HealthBadges";
import { StatusBadge } from "../../ui/StatusBadge";

/**
 * One store to publish to: its health, breaker and a channel's wait (not choosable until it
 * ends), and the settings it still needs. `full`: the most stores one publish takes are chosen.
 */
export function DestinationOption({
  destination: d,
  now,
  channels,
  isOwner,
  chosen,
  full,
  onChoose,
}: {
  destination: Destination;
  now: number;
  channels: ChannelInfo[] | undefined;
  isOwner: boolean;
  chosen: boolean;
  full: boolean;
  onChoose: (on: boolean) => void;
}) {
  const channelName = useChannelName();
  const holds = holdsOf(d, now, channelName);
  const waitHold = holds.find((h) => h.kind === "wait");
  const missing = missingSettings(d, channels);
  const inputId = `dest-${d.id}`;
  return (
    <li
      className={`dest-option${waitHold ? " disabled" : ""}${chosen && !waitHold ? " chosen" : ""}`}
    >
      <input
        id={inputId}
        type="checkbox"
        className="checkbox"
        checked={chosen && !waitHold}
        disabled={Boolean(waitHold) || (!chosen && full)}
        aria-describedby={`${inputId}-state`}
        onChange={(e) => onChoose(e.target.checked)}
      />
      <label htmlFor={inputId} className="dest-option-label">
        <span className="dest-option-name">{d.name}</span>
        <span className="muted small">{channelName(d.channel)}</span>
      </label>
      <span className="badges dest-option-badges">
        <HealthBadges health={d.health} missing={missing} />
        {d.breaker.state !== "closed" ? (
          <StatusBadge status={d.breaker.state} label={breakerLabel(d.breaker.state)} />
        ) : null}
        {waitHold ? <StatusBadge status="throttled" label="Waiting" /> : null}
      </span>
      <div id={`${inputId}-state`} className="dest-option-notes small">
        {holds.map((h) => (
          <p key={h.kind} className={h.kind === "wait" ? "warn-text" : "muted"}>
            {h.text}
            {h.kind === "wait"
              ? ". You can choose it once the wait is over."
              : h.kind === "breaker"
                ? ". Publishes queue and go out when it closes."
                : "."}
          </p>
        ))}
        {missing.length > 0 ? (
          <p className="warn-text">
            Settings missing: {missing.join(", ")}. Publishing here will fail until they are set
            {isOwner ? (
              <>
                {" "}
                in{" "}
                <Link to="/destinations" search={{}}>
                  Destinations
                </Link>
              </>
            ) : (
              " (your organisation's owner sets them)"
            )}
            .
          </p>
        ) : null}
      </div>
    </li>
  );
}
