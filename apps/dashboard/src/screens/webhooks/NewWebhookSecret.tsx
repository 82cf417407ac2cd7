// A new endpoint's signing secret, shown once, with Copy.
import { useEffect, useRef, useState } from "react";
import type { CreatedWebhook } from "@catalog/gateway/api-types";

export function NewWebhookSecret({
  created,
  onDone,
}: {
  created: CreatedWebhook;
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
      aria-labelledby="new-webhook-h"
      style={{ borderColor: "#b9e0cb" }}
    >
      <div className="card-body stack">
        <h2 id="new-webhook-h" ref={headingRef} tabIndex={-1}>
          Endpoint added: {created.endpoint.url}
        </h2>
        <div className="alert alert-warn" style={{ margin: 0 }}>
          <p>
            <strong>Copy the signing secret now: you will not see it again.</strong> Your system
            verifies each delivery's <code>webhook-signature</code> with it (any Standard Webhooks
            library does this).
          </p>
        </div>
        <div className="secret-box">
          <code ref={codeRef} aria-label="The signing secret">
            {created.secret}
          </code>
          <button type="button" className="btn btn-primary" onClick={() => void copy()}>
            {copied === "yes" ? "Copied" : "Copy"}
          </button>
        </div>
        {copied === "no" ? (
          <p className="small muted" role="status" style={{ margin: 0 }}>
            The browser did not allow copying: the secret is selected, press Ctrl+C (⌘C).
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
