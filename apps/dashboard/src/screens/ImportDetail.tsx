// /imports/:id — one import: progress while it is read, then the preview (what each row would
// do, the product it matches, the field diff, errors next to their row), rows the user leaves
// out, and storing exactly what was previewed.
import { useEffect, useState } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Import, ImportRow } from "@catalog/gateway/api-types";
import { errorMessage, isStatus, qk } from "../api/client";
import * as endpoints from "../api/endpoints";
import { ChangeList, moneyText, Thumb } from "../ui/ChangeList";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { PageHeader } from "../ui/PageHeader";
import { Pager } from "../ui/Pager";
import { ProgressBar } from "../ui/ProgressBar";
import { StatusBadge } from "../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../ui/states";
import { useToast } from "../ui/Toast";
import { formatTimeLeft } from "../ui/clock";
import { formatDateTime, formatRelative } from "../ui/format";
import { MAX_SELECTION, useSelection } from "../ui/selection";
import { ENCODING_FIELD_ANCHOR, IMPORT_STATUS_LABELS, encodingLabel, encodingText } from "./Imports";

const route = getRouteApi("/app/imports/$id");
const PAGE_SIZE = 50;
type Outcome = ImportRow["outcome"];
const OUTCOMES: { key: Outcome; label: string; badge: string }[] = [
  { key: "create", label: "New", badge: "new" },
  { key: "update", label: "Updates", badge: "update" },
  { key: "unchanged", label: "Unchanged", badge: "unchanged" },
  { key: "error", label: "Errors", badge: "error" },
];
const BADGE_LABEL: Record<Outcome, string> = { create: "New", update: "Update", unchanged: "Unchanged", error: "Error" };
const STORED_LABEL: Record<NonNullable<ImportRow["stored"]>, string> = { created: "Created", updated: "Updated", unchanged: "Unchanged" };
const sentence = (t: string) => (/^[a-z]+:\/\//i.test(t) ? t : t.charAt(0).toUpperCase() + t.slice(1));
const working = (s: Import["status"] | undefined) => s === "previewing" || s === "storing";
const selectable = (r: ImportRow) => r.outcome === "create" || r.outcome === "update";

/** The rows the user leaves out, per import, kept for this tab (a reload keeps the choice). */
function useLeftOut(id: string) {
  const key = `catalog.import.${id}.leftOut`;
  const [rows, setRows] = useState<Set<number>>(() => {
    try {
      const parsed: unknown = JSON.parse(sessionStorage.getItem(key) ?? "[]");
      return new Set(Array.isArray(parsed) ? parsed.filter((n): n is number => Number.isInteger(n)) : []);
    } catch {
      return new Set();
    }
  });
  useEffect(() => {
    if (rows.size === 0) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify([...rows]));
  }, [key, rows]);
  const set = (many: number[], leaveOut: boolean) => setRows((prev) => {
    const next = new Set(prev);
    for (const n of many) if (leaveOut) next.add(n); else next.delete(n);
    return next;
  });
  return { rows, set, clear: () => setRows(new Set()) };
}

export function ImportDetail() {
  const { id } = route.useParams();
  const { page = 1, outcome: rawOutcome } = route.useSearch();
  const outcome = OUTCOMES.some((o) => o.key === rawOutcome) ? (rawOutcome as Outcome) : undefined;
  const navigate = useNavigate({ from: "/imports/$id" });
  const queryClient = useQueryClient();
  const toast = useToast();
  const leftOut = useLeftOut(id);
  const [storeError, setStoreError] = useState<string | null>(null);
  const [storing, setStoring] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);

  const imp = useQuery({
    queryKey: qk.imports.detail(id),
    queryFn: () => endpoints.imports.get(id),
    refetchInterval: (q) => (working(q.state.data?.status) ? 1000 : false),
    staleTime: 0,
  });
  const status = imp.data?.status;
  const rowsParams = { page, pageSize: PAGE_SIZE, outcome };
  const rows = useQuery({
    queryKey: [...qk.imports.rows(id, rowsParams), status] as const,
    queryFn: () => endpoints.imports.rows(id, rowsParams),
    enabled: imp.data !== undefined && status !== "discarded",
    placeholderData: keepPreviousData,
    refetchInterval: status === "previewing" ? 2000 : false,
  });

  useEffect(() => { document.title = `${imp.data?.name ?? "Import"} · Catalog`; }, [imp.data?.name]);

  // Once stored, the catalog changed.
  const wasStored = status === "stored";
  useEffect(() => {
    if (wasStored) {
      void queryClient.invalidateQueries({ queryKey: qk.products.all });
      leftOut.clear();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wasStored, queryClient]);

  if (imp.isLoading) return <div className="page"><Loading label="Loading the import" /></div>;
  if (!imp.data) {
    return (
      <div className="page">
        <PageHeader title="Import" breadcrumb={<Link to="/imports" search={{}}>Import</Link>} />
        {isStatus(imp.error, 404) ? (
          <Empty title="There is no such import" action={<Link to="/imports" search={{}} className="btn">See your imports</Link>}>
            It may have expired (previews are kept for a few days), or the link is wrong.
          </Empty>
        ) : (
          <ErrorMessage error={imp.error} title="Could not load the import" onRetry={() => void imp.refetch()} />
        )}
      </div>
    );
  }
  const i = imp.data;
  const c = i.counts;
  const totalRows = c.create + c.update + c.unchanged + c.error;
  const toStore = Math.max(0, c.create + c.update - leftOut.rows.size);
  const ready = i.status === "ready";

  function setSearch(next: { page?: number; outcome?: Outcome }) {
    void navigate({ search: { page: next.page && next.page > 1 ? next.page : undefined, outcome: next.outcome }, replace: true });
  }

  async function store() {
    setStoring(true);
    setStoreError(null);
    try {
      const updated = await endpoints.imports.store(id, { skipRows: [...leftOut.rows].sort((a, b) => a - b) });
      queryClient.setQueryData(qk.imports.detail(id), updated);
      void queryClient.invalidateQueries({ queryKey: qk.imports.all });
    } catch (err) {
      setStoreError(errorMessage(err));
      void imp.refetch();
    } finally {
      setStoring(false);
    }
  }

  async function discard() {
    await endpoints.imports.discard(id);
    leftOut.clear();
    await queryClient.invalidateQueries({ queryKey: qk.imports.all });
    toast.notify(`Discarded “${i.name}”: nothing was stored`, "ok");
  }

  const pageRows = rows.data?.items ?? [];
  const pageSelectable = ready ? pageRows.filter(selectable) : [];
  const pageIncluded = pageSelectable.filter((r) => !leftOut.rows.has(r.row)).length;

  return (
    <div className="page import-page">
      <PageHeader
        breadcrumb={<Link to="/imports" search={{}}>Import</Link>}
        title={<span className="wrap-anywhere">{i.name}</span>}
        description={
          <>
            <StatusBadge status={i.status} label={IMPORT_STATUS_LABELS[i.status]} />{" "}
            <span title={formatDateTime(i.createdAt)}>Started {formatRelative(i.createdAt)}</span>
            {i.currency ? <> · prices without a currency read as {i.currency}</> : null}
            {i.encoding ? <EncodingNote encoding={i.encoding} again={i.status !== "discarded"} /> : null}
          </>
        }
        actions={ready ? <button type="button" className="btn" onClick={() => setConfirmDiscard(true)}>Discard</button> : null}
      />

      <p className="visually-hidden" role="status">{IMPORT_STATUS_LABELS[i.status]}</p>
      {working(i.status) ? <ProgressCard item={i} /> : null}

      {i.status === "failed" ? (
        <div className="alert alert-bad" role="alert">
          <p><strong>This import failed{i.error ? ":" : "."}</strong> {i.error ?? ""} Nothing was stored.</p>
          <Link to="/imports" search={{}} className="btn btn-sm">Start another import</Link>
        </div>
      ) : null}
      {i.status === "discarded" ? (
        <Empty title="You discarded this preview" action={<Link to="/imports" search={{}} className="btn btn-primary">Start another import</Link>}>
          Nothing from it was stored.
        </Empty>
      ) : null}
      {i.status === "stored" && i.result ? <StoredResult item={i} /> : null}
      {c.noCurrency > 0 && i.status !== "discarded" ? <NoCurrencyNotice count={c.noCurrency} stored={i.status === "stored"} /> : null}

      {i.status !== "discarded" && (totalRows > 0 || !working(i.status)) ? (
        <section aria-labelledby="preview-h" className="section">
          <div className="section-head">
            <h2 id="preview-h" className="section-title">{i.status === "stored" ? "What was stored" : working(i.status) && i.status === "previewing" ? "Preview so far" : "Preview"}</h2>
            {ready ? <span className="small muted">Nothing is stored yet. Untick the rows you want to leave out.</span> : null}
          </div>
          <div className="chips" role="group" aria-label="Show rows">
            <button type="button" className="chip" aria-pressed={outcome === undefined} onClick={() => setSearch({ outcome: undefined })}>
              All <span className="chip-count">{totalRows.toLocaleString()}</span>
            </button>
            {OUTCOMES.map((o) => (
              <button key={o.key} type="button" className={`chip chip-${o.key}`} aria-pressed={outcome === o.key} onClick={() => setSearch({ outcome: o.key })}>
                {o.label} <span className="chip-count">{c[o.key].toLocaleString()}</span>
              </button>
            ))}
            {c.skipped > 0 && i.status !== "ready" ? <span className="chip chip-static">Left out <span className="chip-count">{c.skipped.toLocaleString()}</span></span> : null}
          </div>

          <ErrorMessage error={rows.error} title="Could not load the rows" onRetry={() => void rows.refetch()} />
          {/* A status change refetches the rows; an empty page kept from before is not "no rows". */}
          {rows.isLoading || (rows.isPlaceholderData && pageRows.length === 0) ? <Loading label="Loading rows" /> : rows.data && pageRows.length === 0 ? (
            <Empty title={outcome ? `No ${OUTCOMES.find((o) => o.key === outcome)?.label.toLowerCase()} rows` : working(i.status) ? "No rows read yet" : "No rows"}>
              {outcome ? "Choose another filter above." : working(i.status) ? "Rows appear here as they are read." : null}
            </Empty>
          ) : pageRows.length > 0 ? (
            <>
              {ready && pageSelectable.length > 0 ? (
                <div className="row page-pick">
                  <button type="button" className="btn btn-sm" disabled={pageIncluded === pageSelectable.length} onClick={() => leftOut.set(pageSelectable.map((r) => r.row), false)}>Include this page</button>
                  <button type="button" className="btn btn-sm" disabled={pageIncluded === 0} onClick={() => leftOut.set(pageSelectable.map((r) => r.row), true)}>Leave out this page</button>
                </div>
              ) : null}
              <div className="table-wrap responsive import-rows">
                <table className="table">
                  <thead>
                    <tr>
                      {ready ? (
                      <th className="check">
                        {ready && pageSelectable.length > 0 ? (
                          <input
                            type="checkbox"
                            className="checkbox"
                            aria-label="Store every new or updated row on this page"
                            checked={pageIncluded === pageSelectable.length}
                            ref={(el) => { if (el) el.indeterminate = pageIncluded > 0 && pageIncluded < pageSelectable.length; }}
                            onChange={(e) => leftOut.set(pageSelectable.map((r) => r.row), !e.target.checked)}
                          />
                        ) : <span className="visually-hidden">Store</span>}
                      </th>
                      ) : null}
                      <th>{i.kind === "urls" ? "Page" : "Row"}</th>
                      <th>Outcome</th>
                      <th>Product</th>
                      <th>Changes</th>
                    </tr>
                  </thead>
                  <tbody>
                    {pageRows.map((r) => (
                      <RowView
                        key={r.row}
                        row={r}
                        ready={ready}
                        included={!leftOut.rows.has(r.row)}
                        onInclude={(on) => leftOut.set([r.row], !on)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={page} totalPages={rows.data?.totalPages ?? 1} total={rows.data?.total ?? 0} noun="rows" onPage={(p) => setSearch({ page: p, outcome })} />
            </>
          ) : null}
        </section>
      ) : null}

      {ready ? (
        <div className="selection-bar store-bar" role="region" aria-label="Store the preview">
          <span>
            <strong>{toStore.toLocaleString()}</strong> of {(c.create + c.update).toLocaleString()} new or updated product{c.create + c.update === 1 ? "" : "s"} will be stored
            {leftOut.rows.size > 0 ? <> · {leftOut.rows.size.toLocaleString()} left out · <button type="button" className="link-button" onClick={leftOut.clear}>include all</button></> : null}
            <span className="store-bar-sub">Kept until {formatDateTime(i.expiresAt)}{c.error > 0 ? ` · ${c.error} row${c.error === 1 ? "" : "s"} with errors will not be stored` : ""}</span>
          </span>
          <span className="row">
            <button type="button" className="btn btn-primary" onClick={store} disabled={storing || toStore === 0}>
              {storing ? "Storing…" : toStore === 0 ? "Nothing to store" : `Store ${toStore.toLocaleString()} product${toStore === 1 ? "" : "s"}`}
            </button>
          </span>
          {storeError ? <p className="store-error" role="alert">{storeError}</p> : null}
        </div>
      ) : null}

      <ConfirmDialog
        open={confirmDiscard}
        title="Discard this preview?"
        confirmLabel="Discard preview"
        danger
        onConfirm={discard}
        onClose={() => setConfirmDiscard(false)}
      >
        <p>Nothing from “{i.name}” has been stored, and nothing will be. The preview is removed; import the file or pages again to start over.</p>
      </ConfirmDialog>
    </div>
  );
}

/**
 * "Text read as windows-1251 (detected)", a CSV/TSV's text encoding, on a line of its own under
 * the header's first; when it was detected, a quiet way to import the file again naming another,
 * for when letters come out wrong.
 */
function EncodingNote({ encoding, again }: { encoding: NonNullable<Import["encoding"]>; again: boolean }) {
  const label = encodingLabel(encoding.name);
  return (
    <span className="header-sub">
      Text <span className="nowrap" title={label ? `Text encoding: ${label}` : undefined}>read as {encodingText(encoding)}</span>
      {again && encoding.source === "detected" ? (
        <>
          {" · "}
          <Link to="/imports" search={{ tab: "file" }} hash={ENCODING_FIELD_ANCHOR} className="quiet-link">
            Letters wrong? Import it again in another encoding
          </Link>
        </>
      ) : null}
    </span>
  );
}

/** Prices the file gave without a currency are left out; the way to keep them is to import the file again with one. */
function NoCurrencyNotice({ count, stored }: { count: number; stored: boolean }) {
  const rows = `${count.toLocaleString()} row${count === 1 ? "" : "s"}`;
  return (
    <div className="alert alert-warn no-currency" role="status">
      <p>
        <strong>{rows} {count === 1 ? "gives a price" : "give prices"} without a currency</strong>, so {count === 1 ? "that product " : "those products "}
        {stored ? (count === 1 ? "was stored" : "were stored") : "will be stored"} without a price. Shopify's and WooCommerce's exports never say their currency:
        import the file again and choose your store's.
      </p>
      <Link to="/imports" search={{ tab: "file" }} className="btn btn-sm">Import the file again with a currency</Link>
    </div>
  );
}

function ProgressCard({ item }: { item: Import }) {
  const { done, total, etaSeconds } = item.progress;
  const storing = item.status === "storing";
  const left = formatTimeLeft(etaSeconds);
  const pct = total ? Math.floor((done / total) * 100) : null;
  return (
    <section className="card section progress-card" aria-label="Progress">
      <div className="card-body stack">
        <div className="progress-head">
          <h2>{storing ? "Storing products" : item.kind === "urls" ? "Reading the pages" : "Reading the file"}</h2>
          <span className="muted">{left ?? (total === null ? "Counting rows…" : "")}</span>
        </div>
        <ProgressBar value={done} max={total} label={storing ? "Storing progress" : "Preview progress"} />
        <p className="small muted progress-text">
          {done.toLocaleString()}{total !== null ? ` of ${total.toLocaleString()}` : ""} {item.kind === "urls" ? "pages" : "rows"} done
          {pct !== null ? ` (${pct}%)` : ""}. {storing ? "" : "Nothing is stored until you choose to. "}You can close this tab: the import keeps going, and you can open it again from the Import page.
        </p>
      </div>
    </section>
  );
}

function StoredResult({ item }: { item: Import }) {
  const r = item.result!;
  const navigate = useNavigate();
  const selection = useSelection();
  const [collecting, setCollecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const changed = r.created + r.updated;

  /** The products this import created or updated become the selection, then Publish opens. */
  async function publishThem() {
    setCollecting(true);
    setError(null);
    try {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const rows = await endpoints.imports.rows(item.id, { page, pageSize: 100 });
        for (const row of rows.items) {
          if ((row.stored === "created" || row.stored === "updated") && row.storedProductId) ids.push(row.storedProductId);
        }
        if (page >= rows.totalPages) break;
      }
      selection.replace(ids);
      await navigate({ to: "/publish", search: ids.length <= 50 ? { ids: ids.join(",") } : {} });
    } catch (err) {
      setError(errorMessage(err));
      setCollecting(false);
    }
  }

  return (
    <div className="alert alert-ok stored-result" role="status">
      <div>
        <p><strong>Stored.</strong> {r.created.toLocaleString()} created, {r.updated.toLocaleString()} updated, {r.unchanged.toLocaleString()} unchanged, {r.skipped.toLocaleString()} left out.</p>
        {error ? <p className="error-text">Could not collect the products: {error}</p> : null}
      </div>
      <span className="row">
        {changed > 0 && changed <= MAX_SELECTION ? (
          <button type="button" className="btn btn-sm btn-primary" onClick={publishThem} disabled={collecting}>
            {collecting ? "Collecting…" : `Publish ${changed === 1 ? "it" : `these ${changed.toLocaleString()}`}`}
          </button>
        ) : null}
        <Link to="/products" search={{}} className={`btn btn-sm${changed > 0 && changed <= MAX_SELECTION ? "" : " btn-primary"}`}>Open the catalog</Link>
        <Link to="/imports" search={{}} className="btn btn-sm">Import more</Link>
      </span>
    </div>
  );
}

function RowView({ row: r, ready, included, onInclude }: { row: ImportRow; ready: boolean; included: boolean; onInclude: (on: boolean) => void }) {
  const canPick = ready && selectable(r);
  const leftOut = (ready && selectable(r) && !included) || r.skipped;
  const label = r.url ?? `Row ${r.row}`;
  const productTitle = r.match?.title ?? r.product?.title ?? null;
  const dropped = r.droppedImages ?? [];
  const image = r.product?.images[0] ?? null;
  const productId = r.match?.productId ?? r.storedProductId;
  const sku = r.match?.sku ?? r.product?.sku ?? null;
  return (
    <tr className={`${leftOut ? "left-out" : ""} outcome-${r.outcome}`}>
      {ready ? (
      <td className={`check${canPick ? "" : " cell-empty"}`} data-label={ready ? "Store" : undefined}>
        {canPick ? (
          <input type="checkbox" className="checkbox" checked={included} onChange={(e) => onInclude(e.target.checked)} aria-label={`Store ${productTitle ?? label}`} />
        ) : <span className="muted small" title={r.outcome === "error" ? "Rows with errors cannot be stored" : "Nothing to store: unchanged"}>—</span>}
      </td>
      ) : null}
      <td data-label={r.url ? "Page" : "Row"} className="row-ref">
        {r.url ? (
          <a href={r.url} target="_blank" rel="noreferrer noopener" className="wrap-anywhere small" title={r.url}>{shortUrl(r.url)}</a>
        ) : <span className="nowrap">Row {r.row}</span>}
      </td>
      <td data-label="Outcome">
        <span className="badges">
          {r.stored ? (
            <StatusBadge status={r.stored} label={STORED_LABEL[r.stored]} title={`Previewed as ${BADGE_LABEL[r.outcome].toLowerCase()}`} />
          ) : (
            <>
              <StatusBadge status={r.outcome} label={BADGE_LABEL[r.outcome]} />
              {r.skipped || (ready && leftOut) ? <StatusBadge status="skipped" label="Left out" tone="muted" /> : null}
            </>
          )}
        </span>
      </td>
      <td data-label="Product" className={`row-product${productTitle ? "" : " cell-empty"}`}>
        <div className="row-product-inner">
          {image ? <Thumb className="thumb" src={image} size={44} /> : null}
          <div className="row-product-text">
            {productId && productTitle ? (
              <Link to="/products/$id" params={{ id: productId }} className="cell-title link-title">{productTitle}</Link>
            ) : productTitle ? (
              <span className="cell-title">{productTitle}</span>
            ) : <span className="muted">—</span>}
            {productTitle ? (
              <div className="cell-sub">
                {sku ? <>SKU <span className="mono">{sku}</span> · </> : null}
                {r.match ? `matched by ${r.match.by === "sku" ? "SKU" : "page address"}` : r.product?.price ? moneyText(r.product.price) : "no price"}
              </div>
            ) : null}
          </div>
        </div>
      </td>
      <td data-label={r.outcome === "error" ? "Error" : "Changes"} className="row-changes">
        {r.outcome === "error" ? (
          <span className="error-text">{r.error ? sentence(r.error) : "This row could not be read"}</span>
        ) : r.outcome === "unchanged" ? (
          <span className="muted small">Same as the catalog</span>
        ) : (
          <ChangeList changes={r.changes} isNew={r.outcome === "create"} hide={r.outcome === "create" ? (r.url ? ["title", "sku", "sourceUrl"] : ["title", "sku"]) : []} />
        )}
        {r.warnings.map((warning) => <p key={warning} className="small warn-text">{sentence(warning)}</p>)}
        {dropped.length > 0 ? (
          <p className="small warn-text" title={dropped.map((d) => `${d.url}: ${d.reason}`).join("\n")}>
            {dropped.length} image{dropped.length === 1 ? "" : "s"} left out: {dropped[0]!.reason}{dropped.length > 1 ? ", …" : ""}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    const rest = `${u.pathname}${u.search}`;
    const text = `${u.host}${rest === "/" ? "" : rest}`;
    return text.length > 70 ? `${text.slice(0, 67)}…` : text;
  } catch {
    return url;
  }
}

