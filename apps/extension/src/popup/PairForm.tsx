import { useState, type FormEvent } from "react";
import type { Pairing } from "../shared/protocol";
import { normalizeServiceUrl } from "../shared/service-address";
import { ask } from "./messaging";

/**
 * Pairing: the service's address and an extension key, checked at once against the service.
 * A wrong address or an unreachable service is said at the address; a refused key at the key.
 */
export function PairForm({
  initialUrl,
  onPaired,
}: {
  initialUrl?: string;
  onPaired: (pairing: Pairing) => void;
}) {
  const [serviceUrl, setServiceUrl] = useState(initialUrl ?? "");
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ url?: string; key?: string; other?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const address = normalizeServiceUrl(serviceUrl);
    const next: typeof errors = {};
    if (!address.ok) next.url = address.error;
    if (!key.trim())
      next.key = "Paste the key you created in the dashboard's Extension keys screen";
    setErrors(next);
    if (!address.ok || next.key) return;
    setBusy(true);
    const reply = await ask("pair", { serviceUrl: address.url, key });
    setBusy(false);
    if (reply.ok) {
      onPaired(reply.value);
      return;
    }
    const { kind, message } = reply.error;
    if (kind === "unreachable") setErrors({ url: message });
    else if (kind === "unauthorized" || /key/i.test(message))
      setErrors({
        key:
          kind === "unauthorized"
            ? "The service does not know this key, or it was revoked. Create a new one in the dashboard's Extension keys screen."
            : message,
      });
    else if (kind === "rejected" && /address/i.test(message)) setErrors({ url: message });
    else setErrors({ other: message });
  }

  return (
    <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
      <div>
        <h1>Connect to your catalog</h1>
        <p className="muted">
          Once, on this browser: then one click imports the product page you are looking at.
        </p>
      </div>
      <div className="field">
        <label htmlFor="service-url">Service address</label>
        <input
          id="service-url"
          className="input"
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://catalog.example.com"
          value={serviceUrl}
          onChange={(e) => setServiceUrl(e.target.value)}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={errors.url ? "service-url-error" : "service-url-hint"}
          autoFocus={!initialUrl}
        />
        {errors.url ? (
          <p id="service-url-error" className="field-error">
            {errors.url}
          </p>
        ) : (
          <p id="service-url-hint" className="hint">
            Where you open the dashboard.
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="extension-key">Extension key</label>
        <input
          id="extension-key"
          className="input mono"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="csk_…"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          aria-invalid={errors.key ? true : undefined}
          aria-describedby={errors.key ? "extension-key-error" : "extension-key-hint"}
          autoFocus={Boolean(initialUrl)}
        />
        {errors.key ? (
          <p id="extension-key-error" className="field-error">
            {errors.key}
          </p>
        ) : (
          <p id="extension-key-hint" className="hint">
            In the dashboard: Extension keys → Create key (an owner of your organisation can).
          </p>
        )}
      </div>
      {errors.other ? (
        <div className="alert alert-bad" role="alert">
          <p>{errors.other}</p>
        </div>
      ) : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Checking…" : "Pair"}
      </button>
    </form>
  );
}
