// /imports: start an import (web pages, a spreadsheet or file; the extension's captures are
// explained), and the recent imports, so one started earlier can be opened again.
import { useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent } from "react";
import { Link, getRouteApi, useLocation, useNavigate } from "@tanstack/react-router";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Import } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../api/client";
import * as endpoints from "../api/endpoints";
import { Field } from "../ui/Field";
import { PageHeader } from "../ui/PageHeader";
import { Pager } from "../ui/Pager";
import { ProgressBar } from "../ui/ProgressBar";
import { StatusBadge } from "../ui/StatusBadge";
import { Tabs } from "../ui/Tabs";
import { Empty, ErrorMessage, Loading } from "../ui/states";
import { formatDateTime, formatRelative } from "../ui/format";
import type { ImportTab } from "../router";

const route = getRouteApi("/app/imports");

/** POST /api/imports takes at most this many URLs (MAX_IMPORT_URLS in the gateway). */
const MAX_URLS = 500;
const MAX_URL_LENGTH = 2048;
const FILE_TYPES = [".csv", ".tsv", ".xlsx", ".json", ".ndjson"];
const CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "JPY", "CNY", "INR", "BRL", "MXN", "ZAR"];
/**
 * Text encodings a CSV/TSV can be named in ("encoding" part; the gateway takes any name iconv-lite
 * knows, these are the common ones), as the gateway reports them back, grouped for the select.
 */
export const TEXT_ENCODINGS: { group: string; options: { name: string; label: string }[] }[] = [
  { group: "Unicode", options: [{ name: "utf-8", label: "Unicode (UTF-8)" }] },
  {
    group: "European", options: [
      { name: "windows-1252", label: "Western European (windows-1252)" },
      { name: "windows-1250", label: "Central European (windows-1250)" },
      { name: "iso-8859-2", label: "Central European (ISO-8859-2)" },
      { name: "windows-1251", label: "Cyrillic (windows-1251)" },
      { name: "koi8-r", label: "Cyrillic (KOI8-R)" },
      { name: "windows-1253", label: "Greek (windows-1253)" },
      { name: "windows-1254", label: "Turkish (windows-1254)" },
      { name: "windows-1257", label: "Baltic (windows-1257)" },
    ],
  },
  {
    group: "Asian", options: [
      { name: "shift_jis", label: "Japanese (Shift_JIS)" },
      { name: "gb18030", label: "Chinese, simplified (GB18030)" },
      { name: "big5", label: "Chinese, traditional (Big5)" },
      { name: "euc-kr", label: "Korean (EUC-KR)" },
    ],
  },
];
/** Where the file form's encoding select is: "Import it again in another encoding" links here. */
export const ENCODING_FIELD_ANCHOR = "text-encoding";


export const IMPORT_STATUS_LABELS: Record<Import["status"], string> = {
  previewing: "Previewing", ready: "Preview ready", storing: "Storing", stored: "Stored", failed: "Failed", discarded: "Discarded",
};

export function Imports() {
  // The tab is in the address, so a link can open the file form (e.g. "import it again with a currency").
  const { tab = "urls" } = route.useSearch();
  const navigate = useNavigate({ from: "/imports" });
  const setTab = (next: ImportTab) => void navigate({ search: (prev) => ({ ...prev, tab: next === "urls" ? undefined : next }), replace: true });
  useEffect(() => { document.title = "Import · Catalog"; }, []);

  return (
    <div className="page">
      <PageHeader
        title="Import products"
        description="Every import starts with a preview of what will change. Nothing is stored until you choose to."
      />
      <section className="card section" aria-label="Start an import">
        <Tabs<ImportTab>
          label="What to import"
          active={tab}
          onChange={setTab}
          tabs={[
            { key: "urls", label: "Web pages" },
            { key: "file", label: <><span className="tab-long">Spreadsheet or file</span><span className="tab-short">File</span></> },
            { key: "extension", label: <><span className="tab-long">Browser extension</span><span className="tab-short">Extension</span></> },
          ]}
        >
          {tab === "urls" ? <UrlForm /> : tab === "file" ? <FileForm /> : <ExtensionNote />}
        </Tabs>
      </section>
      <RecentImports />
    </div>
  );
}

// ---------- Web pages ----------

interface LineCheck { line: number; text: string; problem: string }

/** Non-empty lines, each checked for what is obviously wrong; duplicates are read once. */
export function checkUrlLines(text: string): { urls: string[]; bad: LineCheck[]; duplicates: number } {
  const urls: string[] = [];
  const seen = new Set<string>();
  const bad: LineCheck[] = [];
  let duplicates = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const problem = urlProblem(line);
    if (problem) {
      bad.push({ line: i + 1, text: line, problem });
      return;
    }
    if (seen.has(line)) {
      duplicates++;
      return;
    }
    seen.add(line);
    urls.push(line);
  });
  return { urls, bad, duplicates };
}

function urlProblem(line: string): string | null {
  if (line.length > MAX_URL_LENGTH) return `longer than ${MAX_URL_LENGTH.toLocaleString()} characters`;
  if (/\s/.test(line)) return "contains spaces: put one address on each line";
  if (!/^[a-z][a-z0-9+.-]*:/i.test(line)) return /^[\w-]+(\.[\w-]+)+/.test(line) ? "starts without https://" : "not a web address";
  let url: URL;
  try {
    url = new URL(line);
  } catch {
    return "not a web address";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http:// and https:// pages can be read";
  if (!url.hostname) return "has no host name";
  return null;
}

function UrlForm() {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = useStartImport();
  const check = useMemo(() => checkUrlLines(text), [text]);
  const tooMany = check.urls.length > MAX_URLS;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (check.urls.length === 0 && check.bad.length === 0) return setError("Paste at least one product page address (one per line)");
    if (check.bad.length > 0) return setError(`Fix or remove the ${check.bad.length === 1 ? "line" : `${check.bad.length} lines`} listed below first`);
    if (tooMany) return setError(`One import takes at most ${MAX_URLS} addresses; this has ${check.urls.length}. Split it into several imports.`);
    setBusy(true);
    setError(null);
    try {
      await start(() => endpoints.imports.startUrls(check.urls));
    } catch (err) {
      // "urls[3]: http://… is a loopback address": the message names the address; the index means nothing here.
      setError(errorMessage(err).replace(/^urls\[\d+\]:\s*/i, ""));
      setBusy(false);
    }
  }

  function removeBad() {
    const badLines = new Set(check.bad.map((b) => b.line));
    setText(text.split(/\r?\n/).filter((_, i) => !badLines.has(i + 1)).join("\n"));
    setError(null);
  }

  function addScheme() {
    setText(text.split(/\r?\n/).map((l) => {
      const t = l.trim();
      return t && !/^[a-z][a-z0-9+.-]*:/i.test(t) && /^[\w-]+(\.[\w-]+)+/.test(t) ? `https://${t}` : l;
    }).join("\n"));
    setError(null);
  }
  const missingScheme = check.bad.some((b) => b.problem === "starts without https://");

  const counter = check.urls.length === 0 && check.bad.length === 0
    ? "No addresses yet"
    : `${check.urls.length.toLocaleString()} address${check.urls.length === 1 ? "" : "es"}` +
      (check.duplicates ? ` (${check.duplicates} repeated line${check.duplicates === 1 ? "" : "s"} left out)` : "") +
      (check.bad.length ? ` · ${check.bad.length} line${check.bad.length === 1 ? "" : "s"} to fix` : "");

  return (
    <form className="card-body stack" onSubmit={submit} noValidate>
      <Field
        label="Product page addresses, one per line"
        hint={`Up to ${MAX_URLS} pages at once. Each page is read and previewed; pages without a product show as errors.`}
        error={error}
      >
        {(p) => (
          <textarea
            {...p}
            className="textarea mono url-input"
            rows={8}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            placeholder={"https://shop.example.com/products/blue-mug\nhttps://shop.example.com/products/red-mug"}
            value={text}
            onChange={(e) => { setText(e.target.value); setError(null); }}
          />
        )}
      </Field>
      <p className={`small url-count${check.bad.length || tooMany ? " url-count-bad" : ""}`} aria-live="polite">
        {counter}{tooMany ? ` · over the limit of ${MAX_URLS}` : ""}
      </p>
      {check.bad.length > 0 ? (
        <div className="alert alert-warn bad-lines" role="status">
          <div>
            <p><strong>{check.bad.length === 1 ? "This line does not look like a page address:" : `These ${check.bad.length} lines do not look like page addresses:`}</strong></p>
            <ul>
              {check.bad.slice(0, 8).map((b) => (
                <li key={b.line}>Line {b.line}: <code>{b.text.length > 80 ? `${b.text.slice(0, 80)}…` : b.text}</code> — {b.problem}</li>
              ))}
              {check.bad.length > 8 ? <li>…and {check.bad.length - 8} more</li> : null}
            </ul>
          </div>
          <span className="row">
            {missingScheme ? <button type="button" className="btn btn-sm" onClick={addScheme}>Add https:// where missing</button> : null}
            <button type="button" className="btn btn-sm" onClick={removeBad}>Remove {check.bad.length === 1 ? "it" : "them"}</button>
          </span>
        </div>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Starting…" : check.urls.length > 0 ? `Preview ${check.urls.length.toLocaleString()} page${check.urls.length === 1 ? "" : "s"}` : "Preview pages"}
        </button>
      </div>
    </form>
  );
}

// ---------- Spreadsheet or file ----------

function fileProblem(file: File): string | null {
  const name = file.name.toLowerCase();
  if (!FILE_TYPES.some((ext) => name.endsWith(ext))) return `“${file.name}” is not a file this import reads: choose a ${FILE_TYPES.join(", ")} file`;
  if (file.size === 0) return `“${file.name}” is empty`;
  return null;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function FileForm() {
  const [file, setFile] = useState<File | null>(null);
  const [currency, setCurrency] = useState("");
  const [encoding, setEncoding] = useState("");
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const encodingRef = useRef<HTMLSelectElement>(null);
  const start = useStartImport();
  // Opened from "Import it again in another encoding": the select is what the user came for.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === ENCODING_FIELD_ANCHOR) encodingRef.current?.focus();
  }, [hash]);

  function choose(f: File | null | undefined) {
    setError(null);
    if (!f) return;
    const problem = fileProblem(f);
    setFileError(problem);
    setFile(problem ? null : f);
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    const files = e.dataTransfer.files;
    if (files.length > 1) {
      setFileError("Drop one file at a time");
      return;
    }
    choose(files[0]);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file) {
      setFileError(fileError ?? "Choose a file first");
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await start(() => endpoints.imports.startFile(file, { currency: currency || undefined, encoding: encoding || undefined }));
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form className="card-body stack" onSubmit={submit} noValidate>
      <div
        className={`dropzone${dragging ? " dragging" : ""}${fileError ? " invalid" : ""}`}
        onDragOver={(e) => { e.preventDefault(); e.dataTransfer.dropEffect = "copy"; setDragging(true); }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Field
          label="Product file"
          hint="CSV, TSV, Excel (.xlsx), JSON (an array) or NDJSON. Shopify's and WooCommerce's product exports are recognised."
          error={fileError}
        >
          {(p) => (
            <input
              {...p}
              ref={inputRef}
              type="file"
              className="file-input"
              accept={[...FILE_TYPES, "text/csv", "text/tab-separated-values", "application/json", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"].join(",")}
              onChange={(e) => choose(e.target.files?.[0])}
            />
          )}
        </Field>
        <p className="small muted dropzone-hint" aria-hidden="true">…or drop the file here.</p>
        {file ? (
          <p className="chosen-file">
            <strong>{file.name}</strong> <span className="muted">· {formatBytes(file.size)}</span>
          </p>
        ) : null}
      </div>
      <div className="file-options">
        <Field
          label="Currency for prices without one"
          hint="Shopify's and WooCommerce's exports never say their currency: choose your store's, or their prices are left out."
          className="currency-field"
        >
          {(p) => (
            <select {...p} className="select" value={currency} onChange={(e) => setCurrency(e.target.value)}>
              <option value="">None: the file says</option>
              {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
            </select>
          )}
        </Field>
        <div id={ENCODING_FIELD_ANCHOR} className="encoding-field">
          <Field
            label="Text encoding"
            hint="CSV and TSV only, for files whose accents come out wrong."
          >
            {(p) => (
              <select {...p} ref={encodingRef} className="select" value={encoding} onChange={(e) => { setEncoding(e.target.value); setError(null); }}>
                <option value="">Detect automatically</option>
                {TEXT_ENCODINGS.map((g) => (
                  <optgroup key={g.group} label={g.group}>
                    {g.options.map((o) => <option key={o.name} value={o.name}>{o.label}</option>)}
                  </optgroup>
                ))}
              </select>
            )}
          </Field>
        </div>
      </div>
      {error ? <div className="alert alert-bad" role="alert"><p>{error}</p></div> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "Uploading…" : "Preview file"}</button>
      </div>
    </form>
  );
}

/** "windows-1251 (detected)", "shift_jis (named)": the name the gateway used and who chose it. */
export function encodingText(encoding: NonNullable<Import["encoding"]>): string {
  return `${encoding.name} (${encoding.source})`;
}

/** "Cyrillic (windows-1251)" for the common ones, for a title; null for others. */
export function encodingLabel(name: string): string | null {
  for (const g of TEXT_ENCODINGS) for (const o of g.options) if (o.name === name) return o.label;
  return null;
}

/** Starts an import, then opens it. */
function useStartImport() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (call: () => Promise<Import>) => {
    const created = await call();
    queryClient.setQueryData(qk.imports.detail(created.id), created);
    void queryClient.invalidateQueries({ queryKey: qk.imports.all, exact: false, refetchType: "none" });
    await navigate({ to: "/imports/$id", params: { id: created.id }, search: {} });
  };
}

// ---------- Browser extension ----------

function ExtensionNote() {
  return (
    <div className="card-body stack extension-note">
      <p>
        The Catalog browser extension imports the product page you are looking at, in any shop, with a preview first, as here.
      </p>
      <ol className="steps">
        <li>
          Add the extension to Chrome (or another Chromium browser, or Firefox): whoever runs this service has it (in the service's
          code, <code>apps/extension</code>).
        </li>
        <li>
          Pair it once: click its button, enter this service's address, <code>{window.location.origin}</code>, and an extension key
          (an owner of your organisation creates one in <Link to="/keys">Extension keys</Link>).
        </li>
        <li>
          On a product page, click the button: it shows what it read (title, price, SKU, availability, brand, images, variants) and
          what saving would change; correct anything, then save. On a category or search page, choose products from its list.
        </li>
      </ol>
      <p className="muted small">
        Saved products appear at the top of the <Link to="/products" search={{}}>catalog</Link>; the products chosen on a category page
        are an import of their own, in <strong>Recent imports</strong> below.
      </p>
    </div>
  );
}

// ---------- Recent imports ----------

function RecentImports() {
  const { page = 1 } = route.useSearch();
  const navigate = useNavigate({ from: "/imports" });
  const list = useQuery({
    queryKey: qk.imports.list(page),
    queryFn: () => endpoints.imports.list(page),
    placeholderData: keepPreviousData,
    // While one is being worked on, its progress moves here too.
    refetchInterval: (q) => (q.state.data?.items.some((i) => i.status === "previewing" || i.status === "storing") ? 2000 : false),
  });
  const items = list.data?.items ?? [];

  return (
    <section aria-labelledby="recent-imports-h">
      <h2 id="recent-imports-h" className="section-title">Recent imports</h2>
      <ErrorMessage error={list.error} title="Could not load the imports" onRetry={() => void list.refetch()} />
      {list.isLoading ? <Loading label="Loading imports" /> : list.data && items.length === 0 ? (
        <Empty title={page > 1 ? `There is no page ${page}` : "No imports yet"}>
          {page > 1 ? "Go back to the first page." : "Imports you start appear here, so you can open one again later, even after closing the tab."}
        </Empty>
      ) : items.length > 0 ? (
        <>
          <div className="table-wrap responsive">
            <table className="table">
              <thead>
                <tr><th>Import</th><th>Status</th><th>Rows</th><th>Started</th></tr>
              </thead>
              <tbody>
                {items.map((i) => (
                  <tr key={i.id}>
                    <td className="full">
                      <Link to="/imports/$id" params={{ id: i.id }} search={{}} className="cell-title wrap-anywhere">{i.name}</Link>
                      <div className="cell-sub">
                        {i.kind === "urls" ? "Web pages" : "File"}{i.currency ? ` · prices in ${i.currency} when missing` : ""}
                        {i.encoding ? <> · <span className="nowrap">read as {encodingText(i.encoding)}</span></> : null}
                      </div>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={i.status} label={IMPORT_STATUS_LABELS[i.status]} />
                    </td>
                    <td data-label="Rows">
                      <ImportCountsLine item={i} />
                    </td>
                    <td data-label="Started" className="nowrap" title={formatDateTime(i.createdAt)}>{formatRelative(i.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={list.data?.totalPages ?? 1} total={list.data?.total ?? 0} noun="imports" onPage={(p) => void navigate({ search: { page: p > 1 ? p : undefined } })} />
        </>
      ) : null}
    </section>
  );
}

/** "12 new · 3 updates · 1 error", or the progress while it is being read. */
function ImportCountsLine({ item }: { item: Import }) {
  if (item.status === "previewing" || item.status === "storing") {
    const { done, total } = item.progress;
    return (
      <div className="mini-progress">
        <ProgressBar value={done} max={total} label={`${item.name}: progress`} />
        <span className="small muted">{done.toLocaleString()}{total !== null ? ` of ${total.toLocaleString()}` : ""}</span>
      </div>
    );
  }
  if (item.status === "stored" && item.result) {
    const r = item.result;
    const n = (x: number) => x.toLocaleString();
    return <span className="small">{n(r.created)} created · {n(r.updated)} updated{r.unchanged ? ` · ${n(r.unchanged)} unchanged` : ""}{r.skipped ? ` · ${n(r.skipped)} left out` : ""}</span>;
  }
  if (item.status === "failed") return <span className="small error-text">{item.error ?? "Failed"}</span>;
  const c = item.counts;
  const parts = [
    c.create ? `${c.create.toLocaleString()} new` : null,
    c.update ? `${c.update.toLocaleString()} update${c.update === 1 ? "" : "s"}` : null,
    c.unchanged ? `${c.unchanged.toLocaleString()} unchanged` : null,
    c.error ? `${c.error.toLocaleString()} error${c.error === 1 ? "" : "s"}` : null,
  ].filter(Boolean);
  return <span className="small">{parts.length ? parts.join(" · ") : "No rows"}</span>;
}
