import { useEffect, useState } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { HistoryEntry, ProductDetail } from "@catalog/gateway/api-types";
import { errorMessage, isStatus, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { destinationLabel, useChannelName, useDestinations } from "../../api/queries";
import { useSession } from "../../api/session";
import { ChannelReports } from "../../ui/ChannelReports";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { useToast } from "../../ui/Toast";
import { descriptionText } from "../../ui/description";
import { FIELD_LABELS, formatAvailability, formatDateTime, formatMoney, formatRelative, formatValue } from "../../ui/format";
import { ProductEditForm } from "./ProductEditForm";

const route = getRouteApi("/app/products/$id");

const SOURCE_LABELS: Record<string, string> = {
  scrape: "Imported from a web page",
  document: "Imported from a spreadsheet or file",
  extension: "Captured with the browser extension",
  api: "Created through the API",
};

export function ProductDetailScreen() {
  const { id } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const product = useQuery({ queryKey: qk.products.detail(id), queryFn: () => endpoints.products.get(id) });
  // Through the confirmation dialog, which shows a refusal.
  const remove = useMutation({
    mutationFn: (p: ProductDetail) => endpoints.products.remove(p.id),
    onSuccess: async (_result, p) => {
      queryClient.removeQueries({ queryKey: qk.products.detail(p.id) });
      await queryClient.invalidateQueries({ queryKey: qk.products.all });
      toast.notify(`Deleted “${p.title}”`, "ok");
      await navigate({ to: "/products", search: {} });
    },
  });

  useEffect(() => {
    document.title = `${product.data?.title ?? "Product"} · Catalog`;
  }, [product.data?.title]);

  if (product.isLoading) return <div className="page"><Loading label="Loading the product" /></div>;
  if (product.error || !product.data) {
    return (
      <div className="page">
        <PageHeader title="Product" breadcrumb={<Link to="/products" search={{}}>Catalog</Link>} />
        {isStatus(product.error, 404) ? (
          <Empty title="This product is not in your catalog" action={<Link to="/products" search={{}} className="btn">Back to the catalog</Link>}>
            It may have been deleted, or the link is wrong.
          </Empty>
        ) : (
          <ErrorMessage error={product.error} title="Could not load the product" onRetry={() => void product.refetch()} />
        )}
      </div>
    );
  }
  const p = product.data;

  return (
    <div className="page">
      <PageHeader
        breadcrumb={<Link to="/products" search={{}}>Catalog</Link>}
        title={p.title}
        description={<>{p.sku ? <>SKU <span className="mono">{p.sku}</span> · </> : null}version {p.version} · updated {formatRelative(p.updatedAt)}</>}
        actions={editing ? null : (
          <>
            <button type="button" className="btn" onClick={() => setEditing(true)}>Edit</button>
            <Link to="/publish" search={{ ids: p.id }} className="btn btn-primary">Publish</Link>
            <button type="button" className="btn btn-ghost" style={{ color: "var(--bad)" }} onClick={() => setConfirmDelete(true)}>Delete</button>
          </>
        )}
      />

      {editing ? (
        <section className="section card" aria-label="Edit product">
          <div className="card-header"><h2>Edit product</h2></div>
          <div className="card-body">
            <ProductEditForm
              product={p}
              onSaved={() => { setEditing(false); toast.notify("Product saved", "ok"); }}
              onCancel={() => setEditing(false)}
            />
          </div>
        </section>
      ) : (
        <Overview product={p} />
      )}

      <Listings product={p} />
      <History productId={p.id} />

      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${p.title}”?`}
        confirmLabel="Delete product"
        danger
        onConfirm={() => remove.mutateAsync(p)}
        onClose={() => setConfirmDelete(false)}
      >
        <p>The product is removed from your catalog. Its history is kept, and listings already on your stores are not taken down.</p>
      </ConfirmDialog>
    </div>
  );
}

function Overview({ product: p }: { product: ProductDetail }) {
  const origins = useFieldOrigins(p.id);
  const attributes = Object.entries(p.attributes ?? {});
  return (
    <>
      <div className="grid-2 section">
        <section className="card" aria-labelledby="details-h">
          <div className="card-header"><h2 id="details-h">Details</h2></div>
          <div className="card-body">
            <dl className="dl">
              <dt>Title</dt><dd>{p.title}<Origin entry={origins.get("title")} /></dd>
              <dt>SKU</dt><dd><span className="mono">{p.sku ?? "—"}</span><Origin entry={origins.get("sku")} /></dd>
              <dt>Price</dt><dd>{formatMoney(p.price)}<Origin entry={origins.get("price")} /></dd>
              <dt>Availability</dt><dd>{formatAvailability(p.availability)}<Origin entry={origins.get("availability")} /></dd>
              <dt>Brand</dt><dd>{p.brand ?? "—"}<Origin entry={origins.get("brand")} /></dd>
              <dt>GTIN</dt><dd><span className="mono">{p.gtin ?? "—"}</span><Origin entry={origins.get("gtin")} /></dd>
              <dt>MPN</dt><dd><span className="mono">{p.mpn ?? "—"}</span><Origin entry={origins.get("mpn")} /></dd>
            </dl>
          </div>
        </section>
        <section className="card" aria-labelledby="source-h">
          <div className="card-header"><h2 id="source-h">Where it came from</h2></div>
          <div className="card-body">
            <dl className="dl">
              <dt>Source</dt><dd>{SOURCE_LABELS[p.source] ?? p.source}</dd>
              <dt>Source page</dt>
              <dd>{p.sourceUrl ? <a href={p.sourceUrl} target="_blank" rel="noreferrer noopener">{p.sourceUrl}</a> : "—"}</dd>
              <dt>Created</dt><dd>{formatDateTime(p.createdAt)}</dd>
              <dt>Last changed</dt><dd>{formatDateTime(p.updatedAt)}</dd>
              <dt>Version</dt><dd>{p.version}</dd>
            </dl>
            <p className="small muted" style={{ marginTop: 12, marginBottom: 0 }}>Beside each field: the import or edit that set its current value. Every change is in the history below.</p>
          </div>
        </section>
      </div>

      <section className="section card" aria-labelledby="desc-h">
        <div className="card-header"><h2 id="desc-h">Description</h2><Origin entry={origins.get("description")} /></div>
        <div className="card-body">
          {/* The API's description is HTML it cleaned against its allow-list on this very read (no script, handler, style or
              javascript: link can be in it), so it is shown as the channels that take HTML will show it. */}
          {p.description ? <div className="description" dangerouslySetInnerHTML={{ __html: p.description }} /> : <p className="muted" style={{ margin: 0 }}>No description.</p>}
        </div>
      </section>

      <section className="section card" aria-labelledby="images-h">
        <div className="card-header"><h2 id="images-h">Images <span className="muted small">{p.images.length}</span></h2><Origin entry={origins.get("images")} /></div>
        <div className="card-body">
          {p.images.length === 0 ? <p className="muted" style={{ margin: 0 }}>No images.</p> : (
            <div className="gallery">
              {p.images.map((src, i) => (
                <a key={src + i} href={src} target="_blank" rel="noreferrer noopener" title={src}>
                  <img src={src} alt={`${p.title}, image ${i + 1}`} loading="lazy" referrerPolicy="no-referrer" />
                </a>
              ))}
            </div>
          )}
        </div>
      </section>

      <section className="section" aria-labelledby="variants-h">
        <div className="row" style={{ marginBottom: 8 }}><h2 id="variants-h">Variants</h2><span className="muted small">{p.variants.length}</span></div>
        {p.variants.length === 0 ? <div className="card card-body muted">This product has no variants.</div> : (
          <div className="table-wrap responsive">
            <table className="table">
              <thead><tr><th>Variant</th><th>SKU</th><th>Options</th><th className="num">Price</th><th>GTIN</th><th>Availability</th></tr></thead>
              <tbody>
                {p.variants.map((v, i) => (
                  <tr key={(v.sku ?? "") + i}>
                    <td className="full">
                      <span className="row" style={{ gap: 10, flexWrap: "nowrap" }}>
                        {v.image ? <img className="thumb" src={v.image} alt="" loading="lazy" referrerPolicy="no-referrer" /> : null}
                        <span className="cell-title">{v.title ?? `Variant ${i + 1}`}</span>
                      </span>
                    </td>
                    <td data-label="SKU" className="mono">{v.sku ?? "—"}</td>
                    <td data-label="Options">{Object.entries(v.options).map(([k, val]) => `${k}: ${val}`).join(", ") || "—"}</td>
                    <td data-label="Price" className="num nowrap">{formatMoney(v.price)}</td>
                    <td data-label="GTIN" className="mono">{v.gtin ?? "—"}</td>
                    <td data-label="Availability">{formatAvailability(v.availability)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {attributes.length > 0 ? (
        <section className="section card" aria-labelledby="attrs-h">
          <div className="card-header"><h2 id="attrs-h">Other attributes</h2></div>
          <div className="card-body">
            <dl className="dl">
              {attributes.map(([k, v]) => (
                <div key={k} style={{ display: "contents" }}><dt>{k}</dt><dd>{formatValue(v)}</dd></div>
              ))}
            </dl>
          </div>
        </section>
      ) : null}
    </>
  );
}

function Listings({ product: p }: { product: ProductDetail }) {
  const channelName = useChannelName();
  const destinations = useDestinations();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const retry = useMutation({
    mutationFn: (destinationAccountId: string) => endpoints.products.publish({ productIds: [p.id], destinationAccountIds: [destinationAccountId] }),
    onMutate: (destinationAccountId) => setErrors((e) => ({ ...e, [destinationAccountId]: "" })),
    onSuccess: (result, destinationAccountId) => {
      toast.notify(`Publishing “${p.title}” to ${destinationLabel(destinations.data?.items, destinationAccountId)} again.`, "ok",
        result.runId ? { label: "Follow the run", href: `/runs/${result.runId}` } : undefined);
      void queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) });
      void queryClient.invalidateQueries({ queryKey: qk.syncLogsAll });
      if (result.runId) void queryClient.invalidateQueries({ queryKey: qk.runs.all });
    },
    onError: (err, destinationAccountId) => setErrors((e) => ({ ...e, [destinationAccountId]: errorMessage(err) })),
  });
  const busy = p.listings.some((l) => l.status === "queued" || l.status === "publishing");

  // While a publish is under way, follow it here.
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => void queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) }), 3000);
    return () => clearInterval(t);
  }, [busy, p.id, queryClient]);

  return (
    <section className="section" aria-labelledby="listings-h">
      <div className="row" style={{ marginBottom: 8, justifyContent: "space-between" }}>
        <h2 id="listings-h">Listings</h2>
        <Link to="/sync-logs" search={{ productId: p.id }} className="small">Sync log for this product</Link>
      </div>
      {p.listings.length === 0 ? (
        <div className="card card-body">
          <p className="muted" style={{ margin: 0 }}>Not published to any store yet. <Link to="/publish" search={{ ids: p.id }}>Publish it</Link>.</p>
        </div>
      ) : (
        <div className="table-wrap responsive">
          <table className="table">
            <thead><tr><th>Destination</th><th>Status</th><th>On the store</th><th>Last synced</th><th>Last error</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {p.listings.map((l) => {
                const pending = retry.isPending && retry.variables === l.destinationAccountId;
                const error = errors[l.destinationAccountId];
                return (
                  <tr key={l.destinationAccountId}>
                    <td className="full">
                      <span className="cell-title">{destinationLabel(destinations.data?.items, l.destinationAccountId, l.channel, channelName)}</span>
                      <div className="cell-sub">{channelName(l.channel)}</div>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={l.status} />
                      <ChannelReports reports={l.channelReports} remoteId={l.remoteId} channel={channelName(l.channel)} />
                    </td>
                    <td data-label="On the store" className="wrap-anywhere">
                      {l.remoteUrl ? <a href={l.remoteUrl} target="_blank" rel="noreferrer noopener">Open listing</a> : l.remoteId ? <span className="mono">{l.remoteId}</span> : "—"}
                    </td>
                    <td data-label="Last synced" className="nowrap">{formatDateTime(l.lastSyncedAt)}</td>
                    <td data-label="Last error" className="wrap-anywhere">
                      {l.lastError ? <span style={{ color: "var(--bad)" }}>{l.lastError}</span> : "—"}
                      {error ? <div className="field-error" role="alert">{error}</div> : null}
                    </td>
                    <td data-label="">
                      <button type="button" className="btn btn-sm" disabled={pending || l.status === "queued" || l.status === "publishing"}
                        onClick={() => retry.mutate(l.destinationAccountId)}
                        aria-label={`${l.status === "failed" ? "Retry" : "Publish again"} to ${destinationLabel(destinations.data?.items, l.destinationAccountId, l.channel, channelName)}`}>
                        {pending ? "Retrying…" : l.status === "failed" ? "Retry" : "Publish again"}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const ACTION_LABELS: Record<string, string> = { created: "Created", updated: "Edited", deleted: "Deleted", imported: "Imported" };

/** The first `pages` pages of a product's history, newest first (page 1 is shared with the field origins). */
function historyQuery(productId: string, pages: number) {
  return {
    queryKey: [...qk.products.history(productId), pages] as const,
    queryFn: async () => {
      const all: HistoryEntry[] = [];
      let total = 0;
      for (let page = 1; page <= pages; page++) {
        const result = await endpoints.products.history(productId, page);
        all.push(...result.items);
        total = result.total;
        if (page >= result.totalPages) break;
      }
      return { items: all, total };
    },
  };
}

function useActorLabel() {
  const session = useSession();
  return (actor: HistoryEntry["actor"]): string => {
    if (actor.type === "user") return actor.id === session.user.id ? "you" : `a user of your org (${(actor.id ?? "").slice(0, 8)})`;
    if (actor.type === "apiKey") return "the browser extension (API key)";
    if (actor.type === "system") return "the service";
    return actor.type;
  };
}

/** For each field, the newest history entry that set it: where its current value came from. */
function useFieldOrigins(productId: string): Map<string, HistoryEntry> {
  const history = useQuery(historyQuery(productId, 1));
  const origins = new Map<string, HistoryEntry>();
  for (const entry of history.data?.items ?? []) {
    for (const [field, change] of Object.entries(entry.changes)) {
      if (!origins.has(field) && !(isEmpty(change.from) && isEmpty(change.to))) origins.set(field, entry);
    }
  }
  return origins;
}

function Origin({ entry }: { entry: HistoryEntry | undefined }) {
  const actorLabel = useActorLabel();
  if (!entry) return null;
  const verb = entry.action === "imported" ? "imported" : entry.action === "created" ? "created" : "edited";
  return (
    <span className="origin" title={`${ACTION_LABELS[entry.action] ?? entry.action} by ${actorLabel(entry.actor)}, ${formatDateTime(entry.at)}`}>
      {verb}{entry.action === "updated" ? ` by ${actorLabel(entry.actor)}` : ""} {formatRelative(entry.at)}
    </span>
  );
}

function History({ productId }: { productId: string }) {
  const actorLabel = useActorLabel();
  const [pages, setPages] = useState(1);
  const history = useQuery({ ...historyQuery(productId, pages), placeholderData: (prev) => prev });

  return (
    <section className="section card" aria-labelledby="history-h">
      <div className="card-header"><h2 id="history-h">History</h2>{history.data ? <span className="muted small">{history.data.total} {history.data.total === 1 ? "entry" : "entries"}</span> : null}</div>
      <div className="card-body" style={{ paddingTop: 8, paddingBottom: 8 }}>
        <ErrorMessage error={history.error} title="Could not load the history" onRetry={() => void history.refetch()} />
        {history.isLoading ? <Loading label="Loading the history" /> : history.data && history.data.items.length === 0 ? (
          <p className="muted">No changes recorded yet.</p>
        ) : (
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {history.data?.items.map((entry) => {
              // A field that went from nothing to nothing (an import's empty lists) says nothing.
              const changes = Object.entries(entry.changes).filter(([, c]) => !(isEmpty(c.from) && isEmpty(c.to)));
              return (
                <li key={entry.id} className="history-entry">
                  <div className="row" style={{ justifyContent: "space-between" }}>
                    <span><strong>{ACTION_LABELS[entry.action] ?? entry.action}</strong> by {actorLabel(entry.actor)}</span>
                    <time className="muted small" dateTime={entry.at} title={formatDateTime(entry.at)}>{formatDateTime(entry.at)}</time>
                  </div>
                  {changes.length > 0 ? (
                    <ul className="history-changes">
                      {changes.map(([field, change]) => (
                        <li key={field}>
                          <span className="muted">{FIELD_LABELS[field] ?? field}: </span>
                          {isEmpty(change.from) ? <span className="muted">(empty)</span> : <span className="diff-from">{describe(field, change.from)}</span>}
                          <span aria-label="changed to"> → </span>
                          {isEmpty(change.to) ? <span className="muted">(empty)</span> : <span className="diff-to">{describe(field, change.to)}</span>}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ol>
        )}
        {history.data && history.data.items.length < history.data.total ? (
          <button type="button" className="btn btn-sm" style={{ margin: "8px 0" }} disabled={history.isFetching} onClick={() => setPages((n) => n + 1)}>
            {history.isFetching ? "Loading…" : "Show older changes"}
          </button>
        ) : null}
      </div>
    </section>
  );
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0) ||
    (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);
}

/** A history value, readable: money as money, lists by count when long, a description as its text, long text cut. */
function describe(field: string, value: unknown): string {
  if (field === "description" && typeof value === "string") return cut(descriptionText(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    const shown = value.slice(0, 3).map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
    return value.length > 3 ? `${shown} and ${value.length - 3} more` : shown;
  }
  if (value && typeof value === "object" && !("amount" in value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "none";
  }
  return cut(formatValue(value));
}

const cut = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}…` : text);
