// A new key's secret, shown once, with Copy.
import { useEffect, useRef, useState } from "react";
import type { CreatedExtensionKey } from "@catalog/gateway/api-types";

export function NewSecret({
  created,
  onDone,
}: {
  created: CreatedExtensionKey;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const codeRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.secret);
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
      aria-labelledby="new-key-h"
      style={{ borderColor: "#b9e0cb" }}
    >
      <div className="card-body stack">
        <h2 id="new-key-h" ref={headingRef} tabIndex={-1}>
          Key “{created.key.name}” created
        </h2>
        <div className="alert alert-warn" style={{ margin: 0 }}>
          <p>
            <strong>Copy it now: you will not see it again.</strong> Only a fingerprint of it is
            stored. Paste it into the extension's settings.
          </p>
        </div>
        <div className="secret-box">
          <code ref={codeRef} aria-label="The new key">
            {created.secret}
          </code>
          <button type="button" className="btn btn-primary" onClick={() => void copy()}>
            {copied === "yes" ? "Copied" : "Copy"}
          </button>
        </div>
        {copied === "no" ? (
          <p className="small muted" role="status" style={{ margin: 0 }}>
            The browser did not allow copying: the key is selected, press Ctrl+C (⌘C).
          </p>
        ) : null}
        {copied === "yes" ? (
          <p className="small muted" role="status" style={{ margin: 0 }}>
            Copied to the clipboard.
          </p>
        ) : null}
        <div>
          <button type="button" className="btn" onClick={onDone}>
            I have saved it
          </button>
        </div>
      </div>
    </section>
  );
}
