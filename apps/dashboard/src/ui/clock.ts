// Live time for countdowns ("resumes in 1:23") and "time left" figures.
import { useEffect, useState } from "react";
import { countOf } from "./format";

/** The current time, re-read every `everyMs` while `active` (a countdown on screen). */
export function useNow(active = true, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    // Read at once (the time may be old since the clock last ran), then every `everyMs`.
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, everyMs);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [active, everyMs]);
  return now;
}

/** Seconds until an ISO time (0 when it has passed; null without a time). */
export function secondsUntil(iso: string | null | undefined, now: number): number | null {
  if (!iso) return null;
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.ceil((t - now) / 1000));
}

/** A live countdown: "0:42", "12:05", "1 h 05 min". */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return `${h} h ${String(m).padStart(2, "0")} min`;
  }
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** An estimate in words: "about 5 seconds left", "about 3 minutes left". */
export function formatTimeLeft(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return null;
  const s = Math.round(seconds);
  if (s < 5) return "a few seconds left";
  if (s < 60) return `about ${Math.ceil(s / 5) * 5} seconds left`;
  if (s < 3600) {
    const m = Math.round(s / 60);
    return `about ${countOf(m, "minute")} left`;
  }
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return `about ${h} h ${m} min left`;
}

const clockTime = new Intl.DateTimeFormat(undefined, {
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});

/** The wall-clock time of an ISO instant, for "resumes at 10:32:05". */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : clockTime.format(d);
}
