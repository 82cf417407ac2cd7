// The recent imports under the forms, so one started earlier can be opened again; progress
// moves here while one is being read or stored.
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Import } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { IMPORT_STATUS_LABELS, encodingText, importMapping, isWorking } from "../../lib/imports";
import { Pager } from "../../ui/Pager";
import { ProgressBar } from "../../ui/ProgressBar";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { formatDateTime, formatRelative } from "../../ui/format";
import { countsText, kindText, resultText } from "./import-counts";

const route = getRouteApi("/app/imports");

export function RecentImports() {
  const { page = 1 } = route.useSearch();
  const navigate = useNavigate({ from: "/imports" });
  const list = useQuery({
    queryKey: qk.imports.list(page),
    queryFn: () => endpoints.imports.list(page),
    placeholderData: keepPreviousData,
    // While one is being worked on, its progress moves here too.
    refetchInterval: (q) => (q.state.data?.items.some((i) => isWorking(i.status)) ? 2000 : false),
  });
  const items = list.data?.items ?? [];

  return (
    <section aria-labelledby="recent-imports-h">
      <h2 id="recent-imports-h" className="section-title">
        Recent imports
      </h2>
      <ErrorMessage
        error={list.error}
        title="Could not load the imports"
        onRetry={() => void list.refetch()}
      />
      {list.isLoading ? (
        <Loading label="Loading imports" />
      ) : list.data && items.length === 0 ? (
        <Empty title={page > 1 ? `There is no page ${page}` : "No imports yet"}>
          {page > 1
            ? "Go back to the first page."
            : "Imports you start appear here, so you can open one again later, even after closing the tab."}
        </Empty>
      ) : items.length > 0 ? (
        <>
          <div className="table-wrap responsive">
            <table className="table">
              <thead>
                <tr>
                  <th>Import</th>
                  <th>Status</th>
                  <th>Rows</th>
                  <th>Started</th>
                </tr>
              </thead>
              <tbody>
                {items.map((i) => (
                  <tr key={i.id}>
                    <td className="full">
                      <Link
                        to="/imports/$id"
                        params={{ id: i.id }}
                        search={{}}
                        className="cell-title wrap-anywhere"
                      >
                        {i.name}
                      </Link>
                      <div className="cell-sub">
                        {kindText(i)}
                        {i.encoding ? (
                          <>
                            {" "}
                            · <span className="nowrap">read as {encodingText(i.encoding)}</span>
                          </>
                        ) : null}
                        <MappingWords item={i} />
                      </div>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={i.status} label={IMPORT_STATUS_LABELS[i.status]} />
                    </td>
                    <td data-label="Rows">
                      <ImportCountsLine item={i} />
                    </td>
                    <td data-label="Started" className="nowrap" title={formatDateTime(i.createdAt)}>
                      {formatRelative(i.createdAt)}
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
            noun={["import", "imports"]}
            onPage={(p) => void navigate({ search: { page: p > 1 ? p : undefined } })}
          />
        </>
      ) : null}
    </section>
  );
}

/** "12 new · 3 updates · 1 error", or the progress while it is being read. */
function ImportCountsLine({ item }: { item: Import }) {
  if (isWorking(item.status)) {
    const { done, total } = item.progress;
    return (
      <div className="mini-progress">
        <ProgressBar value={done} max={total} label={`${item.name}: progress`} />
        <span className="small muted">
          {done.toLocaleString()}
          {total !== null ? ` of ${total.toLocaleString()}` : ""}
        </span>
      </div>
    );
  }
  if (item.status === "stored" && item.result)
    return <span className="small">{resultText(item.result)}</span>;
  if (item.status === "failed")
    return <span className="small error-text">{item.error ?? "Failed"}</span>;
  return <span className="small">{countsText(item.counts)}</span>;
}

/** " · saved mapping “Supplier A”" or " · columns mapped", when not read automatically. */
function MappingWords({ item }: { item: Import }) {
  const mapping = importMapping(item);
  if (!mapping) return null;
  return (
    <>
      {" "}
      ·{" "}
      <span className="nowrap">
        {mapping.source === "template"
          ? `saved mapping “${mapping.templateName ?? "deleted"}”`
          : "columns mapped"}
      </span>
    </>
  );
}
