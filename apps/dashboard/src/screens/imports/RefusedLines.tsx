// The addresses the service refused to read (not public, a password in them), each at its line
// with the reason in plain words, and one action that takes them all out.
import type { RefusedLine } from "./url-lines";

const shown = (url: string) => (url.length > 80 ? `${url.slice(0, 80)}…` : url);

export function RefusedLines({ lines, onRemove }: { lines: RefusedLine[]; onRemove: () => void }) {
  return (
    <div className="alert alert-bad bad-lines" role="status">
      <div>
        <p>
          <strong>
            {lines.length === 1
              ? "This address cannot be imported: it could not be read safely."
              : `These ${lines.length} addresses cannot be imported: they could not be read safely.`}
          </strong>
        </p>
        <ul>
          {lines.map((l) => (
            <li key={l.line}>
              Line {l.line}: <code>{shown(l.url)}</code> — {l.reason}
            </li>
          ))}
        </ul>
        <details className="small">
          <summary>Details</summary>
          <ul>
            {lines.map((l) => (
              <li key={l.line} className="mono">
                {l.detail}
              </li>
            ))}
          </ul>
        </details>
      </div>
      <span className="row">
        <button type="button" className="btn btn-sm" onClick={onRemove}>
          Remove {lines.length === 1 ? "it" : "them"}
        </button>
      </span>
    </div>
  );
}
