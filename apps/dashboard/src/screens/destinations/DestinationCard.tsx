// One store: health, breaker, a channel's wait, missing settings, queue counts; for owners the
// channel's settings, rename and disconnect.
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import type { ChannelInfo, Destination } from "@catalog/gateway/api-types";
import { useChannelName } from "../../api/queries";
import { holdsOf, missingSettings } from "../../ui/destination-state";
import { HealthBadges } from "../../ui/HealthBadges";
import { StatusBadge } from "../../ui/StatusBadge";
import { formatDateTime } from "../../ui/format";
import { moveFocusTo } from "../../ui/focus";
import { QUEUE_KEYS, QUEUE_LABELS, breakerLabel } from "./labels";
import { RenameForm } from "./RenameForm";
import { SettingsForm } from "./SettingsForm";
import { SyncSettings } from "./SyncSettings";

export function DestinationCard({
  destination: d,
  channel,
  isOwner,
  now,
  highlighted,
  onDisconnect,
}: {
  destination: Destination;
  channel: ChannelInfo | undefined;
  isOwner: boolean;
  now: number;
  highlighted: boolean;
  onDisconnect: () => void;
}) {
  const channelName = useChannelName();
  const [panel, setPanel] = useState<"none" | "settings" | "rename">("none");
  const holds = holdsOf(d, now, channelName);
  const missing = missingSettings(d, channel ? [channel] : undefined);
  const settingsFields = channel?.settingsFields ?? [];
  const headingId = `dest-h-${d.id}`;
  const toggle = (which: "settings" | "rename") => setPanel(panel === which ? "none" : which);
  // The form goes away with the control that had focus: focus goes to the store's name, so a
  // keyboard user carries on from this card, not from the top of the page.
  const close = () => {
    setPanel("none");
    moveFocusTo(document.getElementById(headingId), false);
  };

  return (
    <article
      id={`dest-${d.id}`}
      className={`card dest-card${highlighted ? " highlighted" : ""}`}
      aria-labelledby={headingId}
    >
      <div className="dest-head">
        <div className="dest-title">
          <h2 id={headingId} className="wrap-anywhere">
            {d.name}
          </h2>
          <span className="muted small">
            {channelName(d.channel)} · connected {formatDateTime(d.connectedAt)}
          </span>
        </div>
        <span className="badges">
          {highlighted ? <StatusBadge status="connected" label="Just connected" /> : null}
          <HealthBadges health={d.health} missing={missing} />
          {/* Sending normally goes without saying: only a pause or a retry is news. */}
          {d.breaker.state !== "closed" ? (
            <StatusBadge status={d.breaker.state} label={breakerLabel(d.breaker.state)} />
          ) : null}
          {holds.some((h) => h.kind === "wait") ? (
            <StatusBadge status="throttled" label="Waiting" />
          ) : null}
        </span>
      </div>

      {holds.length > 0 || missing.length > 0 ? (
        <div className="dest-notes">
          {holds.map((h) => (
            <p
              key={h.kind}
              className={
                h.kind === "wait" ? "warn-text" : h.kind === "breaker" ? "error-text" : "muted"
              }
            >
              {h.text}.
            </p>
          ))}
          {missing.length > 0 ? (
            <p className="warn-text">
              Publishing here fails until these settings are set: {missing.join(", ")}.
            </p>
          ) : null}
        </div>
      ) : null}

      <dl className="queue-counts" aria-label="Queue">
        {QUEUE_KEYS.map((k) => (
          <div
            key={k}
            className={`queue-count${d.queue[k] > 0 && (k === "failed" || k === "dead") ? " queue-count-bad" : ""}`}
          >
            <dt>{QUEUE_LABELS[k]}</dt>
            <dd>
              {k === "dead" && d.queue.dead > 0 ? (
                <Link to="/sync-logs" search={{ status: "dead", destinationAccountId: d.id }}>
                  {d.queue.dead.toLocaleString()}
                </Link>
              ) : k === "failed" && d.queue.failed > 0 ? (
                <Link
                  to="/products"
                  search={{ listing: "failed", store: d.id }}
                  aria-label={`${d.queue.failed.toLocaleString()} failed: show the products that failed on ${d.name}`}
                >
                  {d.queue.failed.toLocaleString()}
                </Link>
              ) : (
                d.queue[k].toLocaleString()
              )}
            </dd>
          </div>
        ))}
      </dl>

      <SyncSettings destination={d} isOwner={isOwner} />

      {isOwner ? (
        <div className="dest-actions">
          {settingsFields.length > 0 ? (
            <button
              type="button"
              className="btn btn-sm"
              aria-expanded={panel === "settings"}
              onClick={() => toggle("settings")}
            >
              {panel === "settings" ? "Close settings" : `${channelName(d.channel)} settings`}
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-sm"
            aria-expanded={panel === "rename"}
            onClick={() => toggle("rename")}
          >
            {panel === "rename" ? "Cancel rename" : "Rename"}
          </button>
          <button type="button" className="btn btn-sm btn-ghost danger-text" onClick={onDisconnect}>
            Disconnect
          </button>
        </div>
      ) : null}

      {isOwner && panel === "settings" ? (
        <SettingsForm destination={d} fields={settingsFields} onDone={close} />
      ) : null}
      {isOwner && panel === "rename" ? <RenameForm destination={d} onDone={close} /> : null}
    </article>
  );
}
