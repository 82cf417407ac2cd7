// The preview's rows: outcome chips (a filter in the address), 50 rows a page with their
// checkboxes while the preview is ready, and the pager.
import { getRouteApi } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Import } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { isWorking, nothingRead } from "../../lib/imports";
import { Pager } from "../../ui/Pager";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { RowView } from "./RowView";
import { OUTCOMES, previewTitle, selectable, type Outcome } from "./rows";
import type { LeftOut } from "./useLeftOut";

const route = getRouteApi("/app/imports/$id");
const PAGE_SIZE = 50;

export function PreviewSection({
  item: i,
  page,
  outcome,
  leftOut,
  onSearch,
}: {
  item: Import;
  page: number;
  outcome: Outcome | undefined;
  leftOut: LeftOut;
  onSearch: (next: { page?: number; outcome?: Outcome }) => void;
}) {
  const { id } = route.useParams();
  const c = i.counts;
  const ready = i.status === "ready";
  const working = isWorking(i.status);
  const unread = nothingRead(i);
  const totalRows = c.create + c.update + c.unchanged + c.error;
  const rowsParams = { page, pageSize: PAGE_SIZE, outcome };
  const rows = useQuery({
    queryKey: [...qk.imports.rows(id, rowsParams), i.status] as const,
    queryFn: () => endpoints.imports.rows(id, rowsParams),
    placeholderData: keepPreviousData,
    refetchInterval: i.status === "previewing" ? 2000 : false,
  });
  const pageRows = rows.data?.items ?? [];
  const pageSelectable = ready ? pageRows.filter(selectable) : [];
  const pageIncluded = pageSelectable.filter((r) => !leftOut.rows.has(r.row)).length;
  const pickPage = (include: boolean) =>
    leftOut.set(
      pageSelectable.map((r) => r.row),
      !include,
    );

  return (
    <section aria-labelledby="preview-h" className="section">
      <div className="section-head">
        <h2 id="preview-h" className="section-title">
          {unread ? "Pages that could not be read" : previewTitle(i.status)}
        </h2>
        {ready && !unread ? (
          <span className="small muted">
            Nothing is stored yet. Untick the rows you want to leave out.
          </span>
        ) : null}
      </div>
      <div className="chips" role="group" aria-label="Show rows" hidden={unread}>
        <button
          type="button"
          className="chip"
          aria-pressed={outcome === undefined}
          onClick={() => onSearch({ outcome: undefined })}
        >
          All <span className="chip-count">{totalRows.toLocaleString()}</span>
        </button>
        {OUTCOMES.map((o) => (
          <button
            key={o.key}
            type="button"
            className={`chip chip-${o.key}`}
            aria-pressed={outcome === o.key}
            onClick={() => onSearch({ outcome: o.key })}
          >
            {o.label} <span className="chip-count">{c[o.key].toLocaleString()}</span>
          </button>
        ))}
        {c.skipped > 0 && !ready ? (
          <span className="chip chip-static">
            Left out <span className="chip-count">{c.skipped.toLocaleString()}</span>
          </span>
        ) : null}
      </div>

      <ErrorMessage
        error={rows.error}
        title="Could not load the rows"
        onRetry={() => void rows.refetch()}
      />
      {/* A status change refetches the rows; an empty page kept from before is not "no rows". */}
      {rows.isLoading || (rows.isPlaceholderData && pageRows.length === 0) ? (
        <Loading label="Loading rows" />
      ) : rows.data && pageRows.length === 0 ? (
        <Empty
          title={
            outcome
              ? `No ${OUTCOMES.find((o) => o.key === outcome)?.label.toLowerCase() ?? ""} rows`
              : working
                ? "No rows read yet"
                : "No rows"
          }
        >
          {outcome
            ? "Choose another filter above."
            : working
              ? "Rows appear here as they are read."
              : null}
        </Empty>
      ) : pageRows.length > 0 ? (
        <>
          {pageSelectable.length > 0 ? (
            <div className="row page-pick">
              <button
                type="button"
                className="btn btn-sm"
                disabled={pageIncluded === pageSelectable.length}
                onClick={() => pickPage(true)}
              >
                Include this page
              </button>
              <button
                type="button"
                className="btn btn-sm"
                disabled={pageIncluded === 0}
                onClick={() => pickPage(false)}
              >
                Leave out this page
              </button>
            </div>
          ) : null}
          <div className="table-wrap responsive import-rows">
            <table className="table">
              <thead>
                <tr>
                  {ready ? (
                    <th className="check">
                      {pageSelectable.length > 0 ? (
                        <input
                          type="checkbox"
                          className="checkbox"
                          aria-label="Store every new or updated row on this page"
                          checked={pageIncluded === pageSelectable.length}
                          ref={(el) => {
                            if (el)
                              el.indeterminate =
                                pageIncluded > 0 && pageIncluded < pageSelectable.length;
                          }}
                          onChange={(e) => pickPage(e.target.checked)}
                        />
                      ) : (
                        <span className="visually-hidden">Store</span>
                      )}
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
          <Pager
            page={page}
            totalPages={rows.data?.totalPages ?? 1}
            total={rows.data?.total ?? 0}
            noun={["row", "rows"]}
            onPage={(p) => onSearch({ page: p, outcome })}
          />
        </>
      ) : null}
    </section>
  );
}
