import { useEffect, useState } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { isStatus, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { destinationLabel, useDestinations } from "../../api/queries";
import { PageHeader } from "../../ui/PageHeader";
import { Pager } from "../../ui/Pager";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { ProductPicker } from "../../ui/ProductPicker";
import { FAILURES, KIND_LABELS, STATUS_LABELS, statusQuery } from "./groups";
import { SyncLogTable } from "./SyncLogTable";

const route = getRouteApi("/app/sync-logs");
const STATUSES = ["queued", "running", "succeeded", "failed", "dead"] as const;
const KINDS = ["publish", "update", "end"] as const;
const REFRESH_MS = 5000;
const PAGE_SIZE = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function SyncLogs() {
  const search = route.useSearch();
  const { status, kind, destinationAccountId, productId, page = 1 } = search;
  const navigate = useNavigate({ from: "/sync-logs" });
  const destinations = useDestinations();
  const [live, setLive] = useState(true);

  useEffect(() => {
    document.title = "Sync logs · Catalog";
  }, []);

  const query = {
    status: statusQuery(status),
    kind,
    destinationAccountId,
    productId,
    page,
    pageSize: PAGE_SIZE,
  };
  const logs = useQuery({
    queryKey: qk.syncLogs(query),
    queryFn: () => endpoints.syncLogs.list(query),
    placeholderData: keepPreviousData,
    refetchInterval: live ? REFRESH_MS : false,
    refetchIntervalInBackground: false,
  });

  // Product titles for the rows on this page (cached for a while; one request per product).
  const productIds = [...new Set((logs.data?.items ?? []).map((l) => l.productId))];
  const titles = useQueries({
    queries: productIds.map((id) => ({
      queryKey: qk.products.detail(id),
      queryFn: () => endpoints.products.get(id),
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  const titleOf = new Map(
    productIds.map((id, i) => [
      id,
      titles[i]?.data?.title ?? (isStatus(titles[i]?.error, 404) ? "(deleted product)" : undefined),
    ]),
  );
  const filterProduct = useQuery({
    queryKey: qk.products.detail(productId ?? ""),
    queryFn: () => endpoints.products.get(productId ?? ""),
    enabled: Boolean(productId && UUID.test(productId)),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const filterTitle = productId ? (filterProduct.data?.title ?? titleOf.get(productId)) : undefined;

  function setFilter(patch: Partial<typeof search>) {
    void navigate({ search: (prev) => ({ ...prev, ...patch, page: undefined }) });
  }

  const filtered = Boolean(status || kind || destinationAccountId || productId);
  const items = logs.data?.items ?? [];

  return (
    <div className="page">
      <PageHeader
        title="Sync logs"
        description="Every publish of a product to a store, newest first."
        actions={
          <span className="row small muted" role="status">
            {live ? `Refreshing every ${REFRESH_MS / 1000} s` : "Paused"}
            {logs.dataUpdatedAt
              ? ` · updated ${new Date(logs.dataUpdatedAt).toLocaleTimeString()}`
              : ""}
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => setLive((l) => !l)}
              aria-pressed={!live}
            >
              {live ? "Pause" : "Resume"}
            </button>
          </span>
        }
      />

      <form className="toolbar" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <div className="field">
          <label className="field-label" htmlFor="f-status">
            Status
          </label>
          <select
            id="f-status"
            className="select"
            value={status ?? ""}
            onChange={(e) => setFilter({ status: e.target.value || undefined })}
          >
            <option value="">Any status</option>
            <option value={FAILURES}>Every failure</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="f-kind">
            Kind
          </label>
          <select
            id="f-kind"
            className="select"
            value={kind ?? ""}
            onChange={(e) => setFilter({ kind: e.target.value || undefined })}
          >
            <option value="">Any kind</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="f-dest">
            Store
          </label>
          <select
            id="f-dest"
            className="select"
            value={destinationAccountId ?? ""}
            onChange={(e) => setFilter({ destinationAccountId: e.target.value || undefined })}
          >
            <option value="">Every store</option>
            {destinations.data?.items.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
            {destinationAccountId &&
            !destinations.data?.items.some((d) => d.id === destinationAccountId) ? (
              <option value={destinationAccountId}>
                {destinationAccountId.slice(0, 8)} (disconnected)
              </option>
            ) : null}
          </select>
        </div>
        <div style={{ flex: "1 1 280px", maxWidth: 420 }}>
          <ProductPicker
            label="Product"
            value={productId}
            title={filterTitle}
            onChange={(id) => setFilter({ productId: id })}
          />
          {productId && filterTitle ? (
            <span className="field-hint">
              <Link to="/products/$id" params={{ id: productId }}>
                Open the product
              </Link>
            </span>
          ) : null}
        </div>
        {filtered ? (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => void navigate({ search: {} })}
          >
            Clear filters
          </button>
        ) : null}
      </form>

      <ErrorMessage
        error={logs.error}
        title="Could not load the sync logs"
        onRetry={() => void logs.refetch()}
      />

      {logs.isLoading ? (
        <Loading label="Loading the sync logs" />
      ) : logs.data && items.length === 0 ? (
        filtered ? (
          <Empty
            title="Nothing matches these filters"
            action={
              <button type="button" className="btn" onClick={() => void navigate({ search: {} })}>
                Clear filters
              </button>
            }
          />
        ) : (
          <Empty
            title="Nothing published yet"
            action={
              <Link to="/products" search={{}} className="btn btn-primary">
                Choose products to publish
              </Link>
            }
          >
            Each publish of a product to a store shows up here, with its attempts and any error.
          </Empty>
        )
      ) : items.length > 0 ? (
        <>
          <SyncLogTable
            runs={logs.data?.runs ?? []}
            items={items}
            titleOf={(id) => titleOf.get(id)}
            storeOf={(id) => destinationLabel(destinations.data?.items, id)}
            channelOf={(id) => destinations.data?.items.find((d) => d.id === id)?.channel}
          />
          <Pager
            page={page}
            totalPages={logs.data?.totalPages ?? 1}
            total={logs.data?.total ?? 0}
            noun={["entry", "entries"]}
            exact={logs.data?.totalExact !== false}
            onPage={(p) =>
              void navigate({ search: (prev) => ({ ...prev, page: p > 1 ? p : undefined }) })
            }
          />
        </>
      ) : null}
    </div>
  );
}
