import { useEffect, useState } from "react";
import type { ExtensionPreview, Import, ImportRow } from "../shared/api";
import type { Pairing } from "../shared/protocol";
import { dashboardUrl } from "../shared/service-address";
import type { UserError } from "../shared/user-error";
import { ErrorView } from "./ErrorView";
import { moneyText, shortAddress } from "./format";
import { ask } from "./messaging";

type ListingAnswer = Extract<ExtensionPreview, { page: "listing" }>;

/** One import takes at most this many pages (the service's bound for the extension). */
export const MAX_PICK = 50;
const POLL_MS = 1000;

const OUTCOME: Record<ImportRow["outcome"], string> = {
  create: "New",
  update: "Update",
  unchanged: "Unchanged",
  error: "Error",
};
const STORED: Record<NonNullable<ImportRow["stored"]>, string> = {
  created: "Created",
  updated: "Updated",
  unchanged: "Unchanged",
};

/**
 * A category or search page: the products it links to, as a checklist. The chosen pages are read
 * by the service (a preview, as in the dashboard), then stored; the import also shows in the
 * dashboard's Import screen, and goes on if this popup closes.
 */
export function ListingPicker({
  pairing,
  preview,
  onPairAgain,
}: {
  pairing: Pairing;
  preview: ListingAnswer;
  onPairAgain: () => void;
}) {
  const items = preview.listing.items;
  const [chosen, setChosen] = useState<Set<string>>(
    () =>
      new Set(
        items
          .filter((i) => !i.inCatalog)
          .slice(0, MAX_PICK)
          .map((i) => i.url),
      ),
  );
  const [job, setJob] = useState<Import | null>(null);
  const [rows, setRows] = useState<ImportRow[]>([]);
  const [failure, setFailure] = useState<UserError | null>(null);
  const [busy, setBusy] = useState(false);

  // Follow the import while the service works on it.
  const working = job?.status === "previewing" || job?.status === "storing";
  useEffect(() => {
    if (!job || !working) return;
    const timer = setTimeout(() => {
      void ask("import", { id: job.id }).then((reply) =>
        reply.ok ? setJob(reply.value) : setFailure(reply.error),
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job, working]);
  // Its rows once read, and again once stored (not on every poll of the same state).
  const jobId = job?.id;
  const settled = job?.status === "ready" || job?.status === "stored" ? job.status : null;
  useEffect(() => {
    if (!jobId || !settled) return;
    void ask("importRows", { id: jobId, page: 1 }).then((reply) =>
      reply.ok ? setRows(reply.value.items) : setFailure(reply.error),
    );
  }, [jobId, settled]);

  async function start() {
    setBusy(true);
    setFailure(null);
    const reply = await ask("startImport", {
      urls: items.filter((i) => chosen.has(i.url)).map((i) => i.url),
    });
    setBusy(false);
    if (reply.ok) setJob(reply.value);
    else setFailure(reply.error);
  }

  async function store() {
    if (!job) return;
    setBusy(true);
    setFailure(null);
    const reply = await ask("storeImport", { id: job.id, skipRows: [] });
    setBusy(false);
    if (reply.ok) setJob(reply.value);
    else setFailure(reply.error);
  }

  const toggle = (url: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(url);
      else next.delete(url);
      return next;
    });
  const full = chosen.size >= MAX_PICK;

  if (job)
    return (
      <ImportProgress
        pairing={pairing}
        job={job}
        rows={rows}
        busy={busy}
        failure={failure}
        onStore={() => void store()}
        onPairAgain={onPairAgain}
      />
    );

  return (
    <div className="stack">
      <div>
        <h1>
          {items.length} product{items.length === 1 ? "" : "s"} on this page
        </h1>
        <p className="muted">
          {preview.listing.truncated
            ? `The first ${items.length} of ${preview.listing.total} are listed. `
            : ""}
          Choose the ones to import: up to {MAX_PICK} at a time.
        </p>
      </div>
      <div className="actions actions-tight">
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => setChosen(new Set(items.slice(0, MAX_PICK).map((i) => i.url)))}
        >
          {items.length > MAX_PICK ? `Choose the first ${MAX_PICK}` : "Choose all"}
        </button>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => setChosen(new Set())}
          disabled={chosen.size === 0}
        >
          Choose none
        </button>
      </div>
      <ul className="pick-list" aria-label="Products on this page">
        {items.map((item) => {
          const on = chosen.has(item.url);
          return (
            <li key={item.url} className={on ? "on" : undefined}>
              <label>
                <input
                  type="checkbox"
                  checked={on}
                  disabled={!on && full}
                  onChange={(e) => toggle(item.url, e.target.checked)}
                />
                {item.image ? (
                  <img src={item.image} alt="" loading="lazy" referrerPolicy="no-referrer" />
                ) : (
                  <span className="thumb-empty" aria-hidden="true" />
                )}
                <span className="pick-text">
                  <span className="pick-title">{item.title ?? shortAddress(item.url)}</span>
                  <span className="muted small">
                    {item.price ? moneyText(item.price) : "no price shown"}
                  </span>
                </span>
              </label>
              {item.inCatalog ? (
                <a
                  className="tag tag-ok"
                  href={dashboardUrl(pairing.serviceUrl, `/products/${item.inCatalog.productId}`)}
                  target="_blank"
                  rel="noreferrer"
                  title={`In your catalog as “${item.inCatalog.title}”`}
                >
                  In catalog
                </a>
              ) : null}
            </li>
          );
        })}
      </ul>
      {full ? (
        <p className="hint" role="status">
          {MAX_PICK} chosen: that is the most one import takes. Import these, then come back for the
          rest.
        </p>
      ) : null}
      {failure ? (
        <ErrorView error={failure} onRetry={() => void start()} onPairAgain={onPairAgain} />
      ) : null}
      <div className="sticky-actions">
        <button
          type="button"
          className="btn btn-primary btn-block"
          onClick={() => void start()}
          disabled={busy || chosen.size === 0}
        >
          {busy
            ? "Starting…"
            : chosen.size === 0
              ? "Choose products to import"
              : `Read ${chosen.size} product${chosen.size === 1 ? "" : "s"}`}
        </button>
      </div>
    </div>
  );
}

function ImportProgress({
  pairing,
  job,
  rows,
  busy,
  failure,
  onStore,
  onPairAgain,
}: {
  pairing: Pairing;
  job: Import;
  rows: ImportRow[];
  busy: boolean;
  failure: UserError | null;
  onStore: () => void;
  onPairAgain: () => void;
}) {
  const { done, total, etaSeconds } = job.progress;
  const c = job.counts;
  const toStore = c.create + c.update;
  const review = dashboardUrl(pairing.serviceUrl, `/imports/${job.id}`);
  const heading = {
    previewing: "Reading the pages…",
    ready: "Read: nothing stored yet",
    storing: "Storing…",
    stored: "Stored",
    failed: "The import failed",
    discarded: "The import was discarded",
  }[job.status];
  return (
    <div className="stack">
      <div>
        <h1>{heading}</h1>
        {job.status === "previewing" || job.status === "storing" ? (
          <>
            <progress value={done} max={total ?? undefined} aria-label="Progress" />
            <p className="muted small">
              {done} of {total ?? "?"} done
              {etaSeconds ? `, about ${Math.max(1, Math.round(etaSeconds))} s left` : ""}. You can
              close this: the import goes on, and the dashboard's Import screen has it.
            </p>
          </>
        ) : null}
        {job.status === "failed" ? (
          <div className="alert alert-bad" role="alert">
            <p>{job.error ?? "It stopped."} Nothing was stored.</p>
          </div>
        ) : null}
        {job.status === "stored" && job.result ? (
          <div className="alert alert-ok" role="status">
            <p>
              {job.result.created} created, {job.result.updated} updated, {job.result.unchanged}{" "}
              unchanged.
            </p>
          </div>
        ) : null}
      </div>
      {rows.length > 0 ? (
        <ul className="outcome-list" aria-label="Each product">
          {rows.map((row) => (
            <li key={row.row}>
              <span className={`tag tag-${row.stored ?? row.outcome}`}>
                {row.stored ? STORED[row.stored] : OUTCOME[row.outcome]}
              </span>
              <span className="pick-text">
                <span className="pick-title">
                  {row.product?.title ?? shortAddress(row.url ?? "")}
                </span>
                {row.outcome === "error" ? (
                  <span className="field-error">{row.error}</span>
                ) : (
                  <span className="muted small">
                    {row.product?.price ? moneyText(row.product.price) : "no price"}
                    {row.warnings.length > 0 ? ` · ${row.warnings[0]}` : ""}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {failure ? <ErrorView error={failure} onPairAgain={onPairAgain} /> : null}
      <div className="sticky-actions actions">
        {job.status === "ready" ? (
          <button
            type="button"
            className="btn btn-primary"
            onClick={onStore}
            disabled={busy || toStore === 0}
          >
            {toStore === 0
              ? "Nothing new to store"
              : `Store ${toStore} product${toStore === 1 ? "" : "s"}`}
          </button>
        ) : null}
        <a className="btn" href={review} target="_blank" rel="noreferrer">
          {job.status === "ready" ? "Review in the dashboard" : "Open in the dashboard"}
        </a>
      </div>
    </div>
  );
}
