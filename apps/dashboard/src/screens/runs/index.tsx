// /runs — every publish run, newest first; unfinished ones refresh themselves.
import { useEffect } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { PublishRunSummary } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { PageHeader } from "../../ui/PageHeader";
import { Pager } from "../../ui/Pager";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { countOf, formatDateTime, formatRelative } from "../../ui/format";
import { RUN_STATES, RUN_STATE_LABELS, runName, runStarter } from "../../lib/runs";
import { useSession } from "../../api/session";

const route = getRouteApi("/app/runs");

export function Runs() {
  const { page = 1 } = route.useSearch();
  const navigate = useNavigate({ from: "/runs" });
  const userId = useSession().user.id;
  const list = useQuery({
    queryKey: qk.runs.list(page),
    queryFn: () => endpoints.publishRuns.list(page),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((r) => !r.finished) ? 3000 : false),
  });
  useEffect(() => {
    document.title = "Publish runs · Catalog";
  }, []);
  const items = list.data?.items ?? [];

  return (
    <div className="page">
      <PageHeader
        title="Publish runs"
        description="Every publish, newest first: how many listings went out, and which failed."
        actions={
          <Link to="/products" search={{}} className="btn btn-primary">
            Publish products
          </Link>
        }
      />
      <ErrorMessage
        error={list.error}
        title="Could not load the runs"
        onRetry={() => void list.refetch()}
      />
      {list.isLoading ? (
        <Loading label="Loading runs" />
      ) : list.data && items.length === 0 ? (
        <Empty
          title={page > 1 ? `There is no page ${page}` : "Nothing published yet"}
          action={
            <Link to="/products" search={{}} className="btn btn-primary">
              Choose products to publish
            </Link>
          }
        >
          Select products in the catalog and choose “Publish selected”. Each publish shows up here.
        </Empty>
      ) : items.length > 0 ? (
        <>
          <div className="table-wrap responsive">
            <table className="table">
              <thead>
                <tr>
                  <th>Run</th>
                  <th>Status</th>
                  <th>Listings</th>
                  <th>Started</th>
                </tr>
              </thead>
              <tbody>
                {items.map((r) => (
                  <tr key={r.id}>
                    <td className="full">
                      <Link to="/runs/$id" params={{ id: r.id }} className="cell-title">
                        {runName(r)}
                      </Link>
                      <div className="cell-sub">
                        {countOf(r.productCount, "product")} to{" "}
                        {countOf(r.destinationCount, "store")} · by {runStarter(r, userId)},{" "}
                        {formatDateTime(r.createdAt)}
                      </div>
                    </td>
                    <td data-label="Status">
                      {r.finished ? (
                        r.counts.failed + r.counts.dead > 0 ? (
                          <StatusBadge status="partial" label="Finished with failures" />
                        ) : (
                          <StatusBadge status="finished" label="Finished" />
                        )
                      ) : (
                        <StatusBadge status="running" label="In progress" />
                      )}
                    </td>
                    <td data-label="Listings">
                      <RunCounts counts={r.counts} />
                    </td>
                    <td data-label="Started" className="nowrap" title={formatDateTime(r.createdAt)}>
                      {formatRelative(r.createdAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            totalPages={list.data?.totalPages ?? 1}
            total={list.data?.total ?? 0}
            noun={["run", "runs"]}
            onPage={(p) => void navigate({ search: { page: p > 1 ? p : undefined } })}
          />
        </>
      ) : null}
    </div>
  );
}

/** "18 published · 2 failed" as small badges; states with no cell are left out. */
function RunCounts({ counts }: { counts: PublishRunSummary["counts"] }) {
  const shown = RUN_STATES.filter((s) => counts[s] > 0);
  if (shown.length === 0) return <span className="muted small">No listings</span>;
  return (
    <span className="badges">
      {shown.map((s) => (
        <StatusBadge
          key={s}
          status={s}
          label={`${counts[s].toLocaleString()} ${RUN_STATE_LABELS[s].toLowerCase()}`}
        />
      ))}
    </span>
  );
}
