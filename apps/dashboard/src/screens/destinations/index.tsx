// /destinations — the stores the catalog is published to: health, breaker, a channel's wait,
// queue counts; connect a store (a full page load to the channel, which brings the user back
// here with ?connected= or ?connectError=); per destination the channel's settings, rename and
// disconnect. Only owners change anything; members see the list.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import type { ChannelField, ChannelInfo, Destination } from "@catalog/gateway/api-types";
import { ApiError, errorMessage, qk } from "../../api/client";
import { useChannels } from "../../api/channels";
import * as endpoints from "../../api/endpoints";
import { useChannelName, useDestinations } from "../../api/queries";
import { useSession } from "../../api/session";
import { useNow } from "../../ui/clock";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { holdsOf, missingSettings, needsClock } from "../../ui/destination-state";
import { Field } from "../../ui/Field";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/Toast";
import { formatDateTime } from "../../ui/format";

const route = getRouteApi("/app/destinations");
const QUEUE_KEYS = ["waiting", "active", "delayed", "failed", "dead"] as const;
const QUEUE_LABELS: Record<(typeof QUEUE_KEYS)[number], string> = { waiting: "Waiting", active: "Publishing", delayed: "Delayed", failed: "Failed", dead: "Dead" };
const HEALTH_LABELS: Record<Destination["health"], string> = { ok: "Healthy", degraded: "Degraded", down: "Down" };

type ConnectNotice = { tone: "ok" | "bad"; text: string; destinationId?: string };

export function Destinations() {
  const channelName = useChannelName();
  const search = route.useSearch();
  const navigate = useNavigate({ from: "/destinations" });
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const destinations = useDestinations({ refetchInterval: 10_000 });
  const channels = useChannels();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [disconnecting, setDisconnecting] = useState<Destination | null>(null);

  // The connect callback's answer arrives in the URL: keep it as a notice, then clean the URL.
  const [notice, setNotice] = useState<ConnectNotice | null>(() => {
    if (search.connectError) return { tone: "bad", text: search.connectError };
    if (search.connected) return { tone: "ok", text: search.connected, destinationId: search.destination };
    return null;
  });
  useEffect(() => {
    if (search.connectError || search.connected || search.destination) {
      if (search.connected) void queryClient.invalidateQueries({ queryKey: qk.destinations });
      void navigate({ search: {}, replace: true });
    }
  }, [search.connectError, search.connected, search.destination, navigate, queryClient]);

  useEffect(() => { document.title = "Destinations · Catalog"; }, []);

  const items = destinations.data?.items ?? [];
  const now = useNow(needsClock(items));
  const connectedOne = notice?.tone === "ok" ? items.find((d) => d.id === notice.destinationId) : undefined;

  useEffect(() => {
    if (!connectedOne) return;
    document.getElementById(`dest-${connectedOne.id}`)?.scrollIntoView({ block: "center" });
  }, [connectedOne]);

  async function disconnect(d: Destination) {
    await endpoints.destinations.disconnect(d.id);
    await queryClient.invalidateQueries({ queryKey: qk.destinations });
    void queryClient.invalidateQueries({ queryKey: qk.products.all });
    toast.notify(`Disconnected “${d.name}”. Its products stay in your catalog.`, "ok");
  }

  return (
    <div className="page">
      <PageHeader
        title="Destinations"
        description="The stores your catalog is published to: whether each is healthy, and what is waiting to go out."
        actions={isOwner && items.length > 0 ? (
          <button
            type="button"
            className="btn"
            onClick={() => {
              const section = document.getElementById("connect");
              section?.scrollIntoView({ behavior: "smooth", block: "start" });
              section?.querySelector<HTMLElement>("input:not([disabled]), button:not([disabled])")?.focus({ preventScroll: true });
            }}
          >
            Connect a store
          </button>
        ) : null}
      />

      {notice ? (
        <div className={`alert alert-${notice.tone}`} role={notice.tone === "bad" ? "alert" : "status"}>
          <p>
            {notice.tone === "bad" ? <><strong>The store was not connected:</strong> {notice.text}</> : (
              <><strong>{channelName(notice.text)} store connected{connectedOne ? `: ${connectedOne.name}` : ""}.</strong>
                {connectedOne && missingSettings(connectedOne, channels.data?.items).length > 0 ? " Fill in its settings below before publishing to it." : " You can publish to it now."}</>
            )}
          </p>
          <button type="button" className="btn btn-sm" onClick={() => setNotice(null)} aria-label="Dismiss this message">Dismiss</button>
        </div>
      ) : null}

      {!isOwner ? (
        <Notice tone="info"><p>Your organisation's owner connects stores and manages their settings. You can publish to the stores below.</p></Notice>
      ) : null}

      <ErrorMessage error={destinations.error} title="Could not load your stores" onRetry={() => void destinations.refetch()} />
      {destinations.isLoading ? <Loading label="Loading your stores" /> : destinations.data && items.length === 0 ? (
        <Empty title="No store connected yet">
          {isOwner ? "Connect your first store below; then publish products to it from the catalog." : "Once your organisation's owner connects a store, you can publish to it."}
        </Empty>
      ) : (
        <div className="dest-list">
          {items.map((d) => (
            <DestinationCard
              key={d.id}
              destination={d}
              channel={channels.data?.items.find((c) => c.channel === d.channel)}
              isOwner={isOwner}
              now={now}
              highlighted={connectedOne?.id === d.id}
              onDisconnect={() => setDisconnecting(d)}
            />
          ))}
        </div>
      )}

      {isOwner ? <ConnectSection channels={channels.data?.items} loading={channels.isLoading} error={channels.error} onRetry={() => void channels.refetch()} /> : null}

      <ConfirmDialog
        open={disconnecting !== null}
        title={`Disconnect “${disconnecting?.name ?? ""}”?`}
        confirmLabel="Disconnect"
        danger
        onConfirm={() => (disconnecting ? disconnect(disconnecting) : undefined)}
        onClose={() => setDisconnecting(null)}
      >
        <p><strong>Your products stay in the catalog.</strong> What changes:</p>
        <ul className="confirm-list">
          <li>
            {disconnecting && disconnecting.queue.waiting + disconnecting.queue.delayed + disconnecting.queue.active > 0
              ? `The ${disconnecting.queue.waiting + disconnecting.queue.delayed + disconnecting.queue.active} publishes still queued for this store are dropped.`
              : "Publishes still queued for this store are dropped."}
          </li>
          <li>The store's access keys are erased here; listings already on the store stay there.</li>
          <li>You can connect the store again later.</li>
        </ul>
      </ConfirmDialog>
    </div>
  );
}

function DestinationCard({ destination: d, channel, isOwner, now, highlighted, onDisconnect }: {
  destination: Destination; channel: ChannelInfo | undefined; isOwner: boolean; now: number; highlighted: boolean; onDisconnect: () => void;
}) {
  const channelName = useChannelName();
  const [panel, setPanel] = useState<"none" | "settings" | "rename">("none");
  const holds = holdsOf(d, now, channelName);
  const missing = missingSettings(d, channel ? [channel] : undefined);
  const settingsFields = channel?.settingsFields ?? [];
  const headingId = `dest-h-${d.id}`;

  return (
    <article id={`dest-${d.id}`} className={`card dest-card${highlighted ? " highlighted" : ""}`} aria-labelledby={headingId}>
      <div className="dest-head">
        <div className="dest-title">
          <h2 id={headingId} className="wrap-anywhere">{d.name}</h2>
          <span className="muted small">{channelName(d.channel)} · connected {formatDateTime(d.connectedAt)}</span>
        </div>
        <span className="badges">
          {highlighted ? <StatusBadge status="connected" label="Just connected" /> : null}
          <StatusBadge status={d.health} label={HEALTH_LABELS[d.health]} />
          <StatusBadge status={d.breaker.state} label={d.breaker.state === "closed" ? "Breaker closed" : d.breaker.state === "open" ? "Breaker open" : "Breaker half-open"} />
          {holds.some((h) => h.kind === "wait") ? <StatusBadge status="throttled" label="Waiting" /> : null}
          {missing.length > 0 ? <StatusBadge status="unsigned" label="Settings missing" tone="warn" /> : null}
        </span>
      </div>

      {holds.length > 0 || missing.length > 0 ? (
        <div className="dest-notes">
          {holds.map((h) => <p key={h.kind} className={h.kind === "wait" ? "warn-text" : h.kind === "breaker" ? "error-text" : "muted"}>{h.text}.</p>)}
          {missing.length > 0 ? <p className="warn-text">Publishing here fails until these settings are set: {missing.join(", ")}.</p> : null}
        </div>
      ) : null}

      <dl className="queue-counts" aria-label="Queue">
        {QUEUE_KEYS.map((k) => (
          <div key={k} className={`queue-count${d.queue[k] > 0 && (k === "failed" || k === "dead") ? " queue-count-bad" : ""}`}>
            <dt>{QUEUE_LABELS[k]}</dt>
            <dd>
              {k === "dead" && d.queue.dead > 0
                ? <Link to="/sync-logs" search={{ status: "dead", destinationAccountId: d.id }}>{d.queue.dead.toLocaleString()}</Link>
                : d.queue[k].toLocaleString()}
            </dd>
          </div>
        ))}
      </dl>

      {isOwner ? (
        <div className="dest-actions">
          {settingsFields.length > 0 ? (
            <button type="button" className="btn btn-sm" aria-expanded={panel === "settings"} onClick={() => setPanel(panel === "settings" ? "none" : "settings")}>
              {panel === "settings" ? "Close settings" : `${channelName(d.channel)} settings`}
            </button>
          ) : null}
          <button type="button" className="btn btn-sm" aria-expanded={panel === "rename"} onClick={() => setPanel(panel === "rename" ? "none" : "rename")}>
            {panel === "rename" ? "Cancel rename" : "Rename"}
          </button>
          <button type="button" className="btn btn-sm btn-ghost danger-text" onClick={onDisconnect}>Disconnect</button>
        </div>
      ) : null}

      {isOwner && panel === "settings" ? <SettingsForm destination={d} fields={settingsFields} onDone={() => setPanel("none")} /> : null}
      {isOwner && panel === "rename" ? <RenameForm destination={d} onDone={() => setPanel("none")} /> : null}
    </article>
  );
}

/** Splits a 422's message into the settings fields it names; the rest shows at the top of the form. */
export function fieldErrors(message: string, fields: ChannelField[]): { byField: Record<string, string>; general: string[] } {
  const byField: Record<string, string> = {};
  const general: string[] = [];
  const text = message.replace(/^settings:\s*/i, "");
  const parts = text.split(/;\s*/).map((s) => s.trim()).filter(Boolean);
  const byLength = [...fields].sort((a, b) => b.name.length - a.name.length);
  for (const part of parts) {
    const pattern = (f: ChannelField) => new RegExp(`(^|[^A-Za-z0-9_])${f.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=[^A-Za-z0-9_]|$)`);
    const field = byLength.find((f) => pattern(f).test(part));
    if (field) {
      // "categoryId is required" reads as "Category ID is required", the label the user sees.
      const named = part.replace(pattern(field), (_m, lead: string) => `${lead}${field.label}`);
      const said = named.charAt(0).toUpperCase() + named.slice(1);
      byField[field.name] = byField[field.name] ? `${byField[field.name]}; ${said}` : said;
    } else {
      general.push(part.charAt(0).toUpperCase() + part.slice(1));
    }
  }
  return { byField, general };
}

function SettingsForm({ destination: d, fields, onDone }: { destination: Destination; fields: ChannelField[]; onDone: () => void }) {
  const channelName = useChannelName();
  const queryClient = useQueryClient();
  const toast = useToast();
  const initial = Object.fromEntries(fields.map((f) => [f.name, d.settings[f.name] === undefined || d.settings[f.name] === null ? "" : String(d.settings[f.name])]));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<{ byField: Record<string, string>; general: string[] }>({ byField: {}, general: [] });
  const [busy, setBusy] = useState(false);
  const topRef = useRef<HTMLDivElement>(null);
  const formId = `settings-${d.id}`;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const settings: Record<string, string | null> = {};
    for (const f of fields) {
      const v = (values[f.name] ?? "").trim();
      if (v !== (initial[f.name] ?? "")) settings[f.name] = v === "" ? null : v;
    }
    setBusy(true);
    setErrors({ byField: {}, general: [] });
    try {
      await endpoints.destinations.update(d.id, { settings });
      await queryClient.invalidateQueries({ queryKey: qk.destinations });
      toast.notify(`Saved the settings of “${d.name}”`, "ok");
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) {
        const found = fieldErrors(err.message, fields);
        setErrors(found);
        const first = fields.find((f) => found.byField[f.name]);
        if (first) (form.elements.namedItem(first.name) as HTMLElement | null)?.focus();
        else topRef.current?.focus();
      } else {
        setErrors({ byField: {}, general: [errorMessage(err)] });
        topRef.current?.focus();
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form id={formId} className="dest-form stack" onSubmit={submit} noValidate aria-label={`${channelName(d.channel)} settings of ${d.name}`}>
      <div ref={topRef} tabIndex={-1}>
        {errors.general.length > 0 ? (
          <div className="alert alert-bad" role="alert">
            <div>{errors.general.map((g) => <p key={g}>{g}</p>)}</div>
          </div>
        ) : Object.keys(errors.byField).length > 0 ? (
          <p className="error-text small" role="alert">Not saved: the store needs a few more settings, see the fields marked below.</p>
        ) : null}
      </div>
      <p className="small muted" style={{ margin: 0 }}>Fields marked <span className="required-mark" aria-hidden="true">*</span><span className="visually-hidden">required</span> are required before publishing. Leave a field empty to remove it.</p>
      <div className="grid-2">
        {fields.map((f) => (
          <ChannelFieldInput key={f.name} field={f} value={values[f.name] ?? ""} error={errors.byField[f.name]} markRequired
            onChange={(value) => setValues((v) => ({ ...v, [f.name]: value }))} />
        ))}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "Saving…" : "Save settings"}</button>
        <button type="button" className="btn" onClick={onDone} disabled={busy}>Cancel</button>
      </div>
    </form>
  );
}

function RenameForm({ destination: d, onDone }: { destination: Destination; onDone: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(d.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError("Give the store a name");
    if (trimmed === d.name) return onDone();
    setBusy(true);
    setError(null);
    try {
      await endpoints.destinations.update(d.id, { name: trimmed });
      await queryClient.invalidateQueries({ queryKey: qk.destinations });
      toast.notify(`Renamed to “${trimmed}”`, "ok");
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="dest-form rename-form" onSubmit={submit} noValidate>
      <Field label="Name" error={error} hint="How this store is called in the dashboard" className="grow">
        {(p) => <input {...p} className="input" value={name} maxLength={200} autoFocus onChange={(e) => setName(e.target.value)} />}
      </Field>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "Saving…" : "Save name"}</button>
        <button type="button" className="btn" onClick={onDone} disabled={busy}>Cancel</button>
      </div>
    </form>
  );
}

function ConnectSection({ channels, loading, error, onRetry }: { channels: ChannelInfo[] | undefined; loading: boolean; error: unknown; onRetry: () => void }) {
  return (
    <section id="connect" className="section connect-section" aria-labelledby="connect-h">
      <h2 id="connect-h" className="section-title">Connect a store</h2>
      <p className="muted">You sign in to the store and allow access there; then you come back here.</p>
      <ErrorMessage error={error} title="Could not load the channels" onRetry={onRetry} />
      {loading ? <Loading label="Loading channels" /> : channels && channels.length === 0 ? (
        <Empty title="No channels">This service has no store channels set up.</Empty>
      ) : (
        <div className="connect-grid">
          {(channels ?? []).map((c) => <ConnectCard key={c.channel} channel={c} />)}
        </div>
      )}
    </section>
  );
}

function ConnectCard({ channel: c }: { channel: ChannelInfo }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [going, setGoing] = useState(false);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const missing: Record<string, string> = {};
    const params: Record<string, string> = {};
    for (const f of c.connectFields) {
      const v = (values[f.name] ?? "").trim();
      if (!v && f.required) missing[f.name] = `Enter the ${f.label.toLowerCase()}`;
      if (v) params[f.name] = v;
    }
    setErrors(missing);
    const first = c.connectFields.find((f) => missing[f.name]);
    if (first) {
      (form.elements.namedItem(first.name) as HTMLElement | null)?.focus();
      return;
    }
    setGoing(true);
    // A full page load: the channel's sign-in page, then its callback brings the user back.
    window.location.assign(endpoints.connectUrl(c.channel, params));
  }

  return (
    <form className="card connect-card" onSubmit={submit} noValidate aria-label={`Connect ${/^[aeiou]/i.test(c.displayName) ? "an" : "a"} ${c.displayName} store`}>
      <div className="card-body stack">
        <h3>{c.displayName}</h3>
        {!c.configured ? (
          <p className="muted small" style={{ margin: 0 }}>Not available: this service has no {c.displayName} app credentials. The service's operator can add them.</p>
        ) : (
          <>
            {c.connectFields.map((f) => (
              <ChannelFieldInput key={f.name} field={f} value={values[f.name] ?? ""} error={errors[f.name]}
                onChange={(value) => setValues((v) => ({ ...v, [f.name]: value }))} />
            ))}
            {c.connectFields.length === 0 ? <p className="muted small" style={{ margin: 0 }}>You will sign in to {c.displayName} and allow access.</p> : null}
          </>
        )}
        <div>
          <button type="submit" className="btn btn-primary btn-sm" disabled={!c.configured || going}>
            {going ? `Opening ${c.displayName}…` : `Connect ${c.displayName}`}
          </button>
        </div>
      </div>
    </form>
  );
}

/**
 * One of a channel's fields (asked before connecting, or among a store's settings) as a labelled
 * input. Store ids, policy ids and addresses: no spell check, no capitals. `markRequired` shows
 * the asterisk a form explains; the word "required" is there for screen readers either way.
 */
function ChannelFieldInput({ field: f, value, error, onChange, markRequired = false }: {
  field: ChannelField; value: string; error: string | undefined; onChange: (value: string) => void; markRequired?: boolean;
}) {
  const required = f.required
    ? <>{markRequired ? <span className="required-mark" aria-hidden="true"> *</span> : null}<span className="visually-hidden"> (required)</span></>
    : null;
  return (
    <Field label={<>{f.label}{required}</>} hint={f.description || undefined} error={error}>
      {(p) => (
        <input
          {...p} name={f.name} className="input" value={value} placeholder={f.placeholder ?? undefined} aria-required={f.required || undefined}
          autoCapitalize="off" spellCheck={false} onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
