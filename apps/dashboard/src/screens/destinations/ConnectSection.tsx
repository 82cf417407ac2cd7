// Owners connect a store: per channel its connect fields (from GET /api/channels), then a full
// page load to the channel's sign-in, whose callback brings the user back to /destinations. A
// refused connect comes back with its reason, shown in that channel's form.
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import type { ChannelInfo } from "@catalog/gateway/api-types";
import * as endpoints from "../../api/endpoints";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { LegalReminder } from "../legal/LegalReminder";
import { ChannelFieldInput } from "./ChannelFieldInput";
import { connectParams, connectRefusal } from "./fields";
import { connectFormLabel } from "./labels";

export function ConnectSection({
  channels,
  loading,
  error,
  onRetry,
  refused,
}: {
  channels: ChannelInfo[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  /** The gateway's reason for the last connect it refused, and the channel it was for. */
  refused: { channel: string; message: string } | null;
}) {
  return (
    <section id="connect" className="section connect-section" aria-labelledby="connect-h">
      <h2 id="connect-h" className="section-title">
        Connect a store
      </h2>
      <p className="muted">
        You sign in to the store and allow access there; then you come back here.
      </p>
      <LegalReminder before="connect" />
      <ErrorMessage error={error} title="Could not load the channels" onRetry={onRetry} />
      {loading ? (
        <Loading label="Loading channels" />
      ) : channels && channels.length === 0 ? (
        <Empty title="No channels">This service has no store channels set up.</Empty>
      ) : (
        <div className="connect-grid">
          {(channels ?? []).map((c) => (
            <ConnectCard
              key={c.channel}
              channel={c}
              refused={refused?.channel === c.channel ? refused.message : null}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function ConnectCard({ channel: c, refused }: { channel: ChannelInfo; refused: string | null }) {
  const refusal = refused === null ? null : connectRefusal(refused, c.connectFields);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>(() =>
    refusal?.field ? { [refusal.field]: refusal.text } : {},
  );
  const [formError, setFormError] = useState(() =>
    refusal && !refusal.field ? refusal.text : null,
  );
  const [going, setGoing] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // Back from a refused connect: the form that was refused is where the merchant looks next.
  const returned = refused !== null;
  useEffect(() => {
    if (!returned || !form.current) return;
    form.current.scrollIntoView({ block: "center" });
    form.current
      .querySelector<HTMLElement>("[aria-invalid='true'], input, button:not([disabled])")
      ?.focus({ preventScroll: true });
  }, [returned]);

  function submit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const { params, missing } = connectParams(c.connectFields, values);
    setErrors(missing);
    setFormError(null);
    const first = c.connectFields.find((f) => missing[f.name]);
    if (first) {
      const field = e.currentTarget.elements.namedItem(first.name);
      if (field instanceof HTMLElement) field.focus();
      return;
    }
    setGoing(true);
    // A full page load: the channel's sign-in page, then its callback brings the user back.
    window.location.assign(endpoints.connectUrl(c.channel, params));
  }

  return (
    <form
      ref={form}
      className="card connect-card"
      onSubmit={submit}
      noValidate
      aria-label={connectFormLabel(c.displayName)}
    >
      <div className="card-body stack">
        <h3>{c.displayName}</h3>
        {formError ? (
          <Notice tone="bad" style={{ margin: 0 }}>
            <p>
              <strong>{c.displayName} was not connected.</strong> {formError}
            </p>
          </Notice>
        ) : null}
        {!c.configured ? (
          <p className="muted small" style={{ margin: 0 }}>
            Not available: this service has no {c.displayName} app credentials. The service's
            operator can add them.
          </p>
        ) : (
          <>
            {c.connectFields.map((f) => (
              <ChannelFieldInput
                key={f.name}
                field={f}
                value={values[f.name] ?? ""}
                error={errors[f.name]}
                onChange={(value) => setValues((v) => ({ ...v, [f.name]: value }))}
              />
            ))}
            {c.connectFields.length === 0 ? (
              <p className="muted small" style={{ margin: 0 }}>
                You will sign in to {c.displayName} and allow access.
              </p>
            ) : null}
          </>
        )}
        <div>
          <button
            type="submit"
            className="btn btn-primary btn-sm"
            disabled={!c.configured || going}
          >
            {going ? `Opening ${c.displayName}…` : `Connect ${c.displayName}`}
          </button>
        </div>
      </div>
    </form>
  );
}
