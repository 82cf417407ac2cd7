export type Tone = "ok" | "warn" | "bad" | "info" | "muted";

// Every status word the API uses, with the colour that says what it means. The text is always
// shown too: colour is never the only signal.
const TONES: Record<string, Tone> = {
  published: "ok",
  succeeded: "ok",
  ok: "ok",
  closed: "ok",
  signed: "ok",
  stored: "ok",
  ready: "info",
  done: "ok",
  active: "info",
  finished: "ok",
  completed: "ok",
  create: "ok",
  created: "ok",
  connected: "ok",
  queued: "muted",
  waiting: "muted",
  pending: "muted",
  unchanged: "muted",
  revoked: "muted",
  delayed: "warn",
  publishing: "info",
  ending: "info",
  ended: "muted",
  running: "info",
  storing: "info",
  previewing: "info",
  importing: "info",
  update: "info",
  updated: "info",
  halfOpen: "warn",
  degraded: "warn",
  throttled: "warn",
  partial: "warn",
  unsigned: "warn",
  failed: "bad",
  dead: "bad",
  error: "bad",
  down: "bad",
  open: "bad",
  discarded: "muted",
  cancelled: "muted",
};

const LABELS: Record<string, string> = { halfOpen: "half-open", ok: "OK" };

function toneOf(status: string): Tone {
  return TONES[status] ?? "muted";
}

export function StatusBadge({
  status,
  label,
  tone,
  title,
}: {
  status: string;
  label?: string;
  tone?: Tone;
  title?: string;
}) {
  return (
    <span className={`badge badge-${tone ?? toneOf(status)}`} title={title}>
      {label ?? LABELS[status] ?? status}
    </span>
  );
}
