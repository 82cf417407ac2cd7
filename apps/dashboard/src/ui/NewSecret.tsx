// A new secret (an extension key, an API token, a webhook's signing secret), shown once, with
// Copy. It takes focus when it appears (it replaces the form that asked for it), and gives it to
// the screen's title when the user is done with it.
import { useId, useRef, useState, type ReactNode } from "react";
import { focusScreenHeading, useFocusOnMount } from "./focus";

export function NewSecret({
  heading,
  secret,
  what,
  children,
  onDone,
}: {
  heading: string;
  secret: string;
  /** What the secret is, as in "The new key". */
  what: string;
  /** How it is kept and where to put it. */
  children: ReactNode;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const codeRef = useRef<HTMLElement>(null);
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const headingId = useId();

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      // No clipboard permission (or not a secure context): select the text so Ctrl+C works.
      const range = document.createRange();
      if (codeRef.current) {
        range.selectNodeContents(codeRef.current);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
      }
      setCopied("no");
    }
  }

  return (
    <section
      className="card section"
      aria-labelledby={headingId}
      style={{ borderColor: "#b9e0cb" }}
    >
      <div className="card-body stack">
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          {heading}
        </h2>
        <div className="alert alert-warn" style={{ margin: 0 }}>
          <p>
            <strong>Copy it now: you will not see it again.</strong> {children}
          </p>
        </div>
        <div className="secret-box">
          <code ref={codeRef} aria-label={what}>
            {secret}
          </code>
          <button type="button" className="btn btn-primary" onClick={() => void copy()}>
            {copied === "yes" ? "Copied" : "Copy"}
          </button>
        </div>
        {copied === "no" ? (
          <p className="small muted" role="status" style={{ margin: 0 }}>
            The browser did not allow copying: it is selected, press Ctrl+C (⌘C).
          </p>
        ) : null}
        {copied === "yes" ? (
          <p className="small muted" role="status" style={{ margin: 0 }}>
            Copied to the clipboard.
          </p>
        ) : null}
        <div>
          <button
            type="button"
            className="btn"
            onClick={() => {
              onDone();
              focusScreenHeading();
            }}
          >
            I have saved it
          </button>
        </div>
      </div>
    </section>
  );
}
