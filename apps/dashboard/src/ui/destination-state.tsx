// What stops a destination from publishing right now (a channel's wait, an open breaker,
// incomplete settings), in words, with a live countdown. Shared by Publish, the run view and
// Destinations.
import type { ChannelInfo, Destination, PublishRun } from "@catalog/gateway/api-types";
import type { ChannelNamer } from "../api/queries";
import { formatClock, formatCountdown, secondsUntil } from "./clock";

type Held = Pick<Destination, "channel" | "breaker" | "channelWaitUntil"> & {
  channelWait?: Destination["channelWait"];
};
type RunDestination = PublishRun["destinations"][number];

export interface Hold {
  kind: "wait" | "breaker" | "halfOpen";
  text: string;
  seconds: number | null;
  until: string | null;
}

/** The holds on a destination at `now`; a wait or breaker whose time has passed is not one. */
export function holdsOf(d: Held | RunDestination, now: number, channelName: ChannelNamer): Hold[] {
  const holds: Hold[] = [];
  const wait = secondsUntil(d.channelWaitUntil, now);
  if (d.channelWaitUntil && wait !== null && wait > 0) {
    const who = channelName(("channelWait" in d && d.channelWait?.channel) || d.channel);
    const reason = "channelWait" in d && d.channelWait?.reason ? ` (${d.channelWait.reason})` : "";
    holds.push({
      kind: "wait",
      seconds: wait,
      until: d.channelWaitUntil,
      text: `${who} asked us to wait${reason}: publishing resumes in ${formatCountdown(wait)}, at ${formatClock(d.channelWaitUntil)}`,
    });
  }
  if (d.breaker.state === "open") {
    const retry = secondsUntil(d.breaker.retryAt, now);
    holds.push({
      kind: "breaker",
      seconds: retry,
      until: d.breaker.retryAt,
      text:
        d.breaker.retryAt && retry !== null && retry > 0
          ? `Paused after repeated failures (breaker open): tries again in ${formatCountdown(retry)}, at ${formatClock(d.breaker.retryAt)}`
          : "Paused after repeated failures (breaker open): trying again now",
    });
  } else if (d.breaker.state === "halfOpen") {
    holds.push({
      kind: "halfOpen",
      seconds: null,
      until: null,
      text: "Recovering after failures (breaker half-open): a few publishes go through to test the store",
    });
  }
  return holds;
}

/** Whether any hold needs a ticking clock. */
export function needsClock(ds: (Held | RunDestination)[] | undefined): boolean {
  return (ds ?? []).some((d) => d.channelWaitUntil !== null || d.breaker.state !== "closed");
}

/** The channel's required settings that the destination lacks. */
export function missingSettings(
  d: Pick<Destination, "channel" | "settings">,
  channels: ChannelInfo[] | undefined,
): string[] {
  const info = channels?.find((c) => c.channel === d.channel);
  if (!info) return [];
  return info.settingsFields
    .filter((f) => f.required)
    .filter((f) => {
      const v = d.settings[f.name];
      return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
    })
    .map((f) => f.label);
}

/**
 * The breaker (paused after repeated errors) in a merchant's words; the operator's System screen
 * keeps the technical names.
 */
export function breakerLabel(state: Destination["breaker"]["state"]): string {
  return state === "closed"
    ? "Sending normally"
    : state === "open"
      ? "Paused after errors"
      : "Trying again";
}
