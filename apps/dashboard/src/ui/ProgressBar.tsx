/** A labelled progress bar; without a total it shows an indeterminate stripe. */
export function ProgressBar({
  value,
  max,
  label,
}: {
  value: number;
  max: number | null;
  label: string;
}) {
  const known = max !== null && max > 0;
  const pct = known ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      className={`progress${known ? "" : " progress-indeterminate"}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? value : undefined}
    >
      <div className="progress-fill" style={known ? { width: `${pct}%` } : undefined} />
    </div>
  );
}
