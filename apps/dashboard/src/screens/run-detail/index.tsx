// /runs/:id — one publish run, live: server-sent events (event `run` carries the whole run,
// `end` once finished), falling back to polling every 2 s if the stream fails. Counts per
// state, a product x destination matrix, failures grouped by message, "Retry failed", and per
// destination a notice when its channel asked to wait or its breaker is open.
import { useEffect, useMemo, useState } from "react";
import { Link, getRouteApi } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, isStatus, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useChannels } from "../../api/channels";
import { useChannelName } from "../../api/queries";
import { useSession } from "../../api/session";
import { PageHeader } from "../../ui/PageHeader";
import { ProgressBar } from "../../ui/ProgressBar";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { countOf, formatDateTime, formatRelative } from "../../ui/format";
import { RUN_STATES, RUN_STATE_LABELS, runName, runStarter, runTotal } from "../../lib/runs";
import { modeText, useLiveRun } from "./useLiveRun";
import { CellBadge, type Cell } from "./CellBadge";
import { DestinationNotices } from "./DestinationNotices";
import { retryCanChange } from "../../ui/failure-words";
import { FailureGroups } from "./FailureGroups";

const route = getRouteApi("/app/runs/$id");
const MATRIX_ROWS = 100;

export function RunDetail() {
  const channelName = useChannelName();
  const channels = useChannels();
  const { user } = useSession();
  const isOwner = user.role === "owner";
  const userId = user.id;
  const { id } = route.useParams();
  const { run, mode, follow } = useLiveRun(id);
  const queryClient = useQueryClient();
  const toast = useToast();
  const retry = useMutation({
    mutationFn: () => endpoints.publishRuns.retry(id),
    onSuccess: async (result) => {
      toast.notify(
        result.retried === 0
          ? "Nothing to retry"
          : `Retrying ${countOf(result.retried, "listing")}`,
        "ok",
      );
      await queryClient.invalidateQueries({ queryKey: qk.runs.detail(id) });
      follow();
    },
  });
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [allRows, setAllRows] = useState(false);
  const r = run.data;

  const name = r ? runName(r) : null;
  useEffect(() => {
    document.title = `${name ?? "Publish run"} · Catalog`;
  }, [name]);

  const cellMap = useMemo(() => {
    const m = new Map<string, Cell>();
    for (const c of r?.cells ?? []) m.set(`${c.productId}|${c.destinationAccountId}`, c);
    return m;
  }, [r?.cells]);

  if (run.isLoading)
    return (
      <div className="page">
        <Loading label="Loading the run" />
      </div>
    );
  if (!r) {
    return (
      <div className="page">
        <PageHeader
          title="Publish run"
          breadcrumb={
            <Link to="/runs" search={{}}>
              Publish runs
            </Link>
          }
        />
        {isStatus(run.error, 404) ? (
          <Empty
            title="There is no such run"
            action={
              <Link to="/runs" search={{}} className="btn">
                See every run
              </Link>
            }
          >
            The link may be wrong.
          </Empty>
        ) : (
          <ErrorMessage
            error={run.error}
            title="Could not load the run"
            onRetry={() => void run.refetch()}
          />
        )}
      </div>
    );
  }

  const total = runTotal(r.counts);
  const problems = r.counts.failed + r.counts.dead;
  // Only what a retry can change is offered: an outage, or a product or store fixed since.
  const retryable = r.cells.filter(retryCanChange).length;
  const problemProducts = new Set(
    r.cells.filter((c) => c.status === "failed" || c.status === "dead").map((c) => c.productId),
  );
  const rows = onlyProblems ? r.products.filter((p) => problemProducts.has(p.id)) : r.products;
  const shownRows = allRows ? rows : rows.slice(0, MATRIX_ROWS);

  return (
    <div className="page run-page">
      <PageHeader
        breadcrumb={
          <Link to="/runs" search={{}}>
            Publish runs
          </Link>
        }
        title={runName(r)}
        description={
          <>
            {r.finished ? (
              problems > 0 ? (
                <StatusBadge status="partial" label="Finished with failures" />
              ) : (
                <StatusBadge status="finished" label="Finished" />
              )
            ) : (
              <StatusBadge status="running" label="In progress" />
            )}{" "}
            <span>
              {countOf(r.productCount, "product")} to {countOf(r.destinationCount, "store")} ·
              started by {runStarter(r, userId)}{" "}
              <span title={formatDateTime(r.createdAt)}>{formatRelative(r.createdAt)}</span>
            </span>
            {modeText(mode, r.finished) ? (
              <span className="muted live-mode" role="status">
                {" "}
                · {modeText(mode, r.finished)}
              </span>
            ) : null}
          </>
        }
        actions={
          retryable > 0 ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => retry.mutate()}
              disabled={retry.isPending}
            >
              {retry.isPending ? "Retrying…" : `Retry ${retryable.toLocaleString()} failed`}
            </button>
          ) : null
        }
      />
      {retry.error ? (
        <Notice tone="bad">
          <p>
            <strong>Could not retry:</strong> {errorMessage(retry.error)}
          </p>
        </Notice>
      ) : null}
      {run.error && !isStatus(run.error, 404) ? (
        <ErrorMessage
          error={run.error}
          title="Could not refresh the run"
          onRetry={() => void run.refetch()}
        />
      ) : null}

      <DestinationNotices destinations={r.destinations} />

      <section className="card section" aria-label="Progress">
        <div className="card-body stack run-progress">
          <ProgressBar
            value={total - r.counts.queued - r.counts.running}
            max={total}
            label="Listings done"
          />
          <div className="run-counts">
            {RUN_STATES.map((s) => (
              <div key={s} className={`run-count run-count-${s}`}>
                <span className="run-count-value">{r.counts[s].toLocaleString()}</span>
                <StatusBadge status={s} label={RUN_STATE_LABELS[s]} />
              </div>
            ))}
          </div>
          <p className="small muted" style={{ margin: 0 }}>
            {countOf(total, "listing")}: each product on each store. “Gave up” ones ran out of
            attempts; “Retry” sends again those a retry can change.
          </p>
        </div>
      </section>

      <FailureGroups run={r} channels={channels.data?.items} isOwner={isOwner} />

      <section className="section" aria-labelledby="matrix-h">
        <div className="section-head">
          <h2 id="matrix-h" className="section-title">
            Products and stores
          </h2>
          {problems > 0 ? (
            <label className="row small toggle">
              <input
                type="checkbox"
                className="checkbox"
                checked={onlyProblems}
                onChange={(e) => setOnlyProblems(e.target.checked)}
              />
              Only products with failures
            </label>
          ) : null}
        </div>
        <div
          className="matrix-wrap"
          tabIndex={0}
          role="region"
          aria-label="Listings per product and store (scrolls sideways)"
        >
          <table className="table matrix">
            <thead>
              <tr>
                <th className="matrix-product" scope="col">
                  Product
                </th>
                {r.destinations.map((d) => (
                  <th key={d.id} scope="col">
                    <span className="matrix-dest">{d.name}</span>
                    <span className="cell-sub">
                      {channelName(d.channel)}
                      {d.disconnected ? " · disconnected" : ""}
                    </span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shownRows.map((p) => (
                <tr key={p.id}>
                  <th scope="row" className="matrix-product">
                    {p.deleted ? (
                      <span className="muted" title="Deleted from the catalog">
                        {p.title} (deleted)
                      </span>
                    ) : (
                      <Link to="/products/$id" params={{ id: p.id }} className="cell-title">
                        {p.title}
                      </Link>
                    )}
                    {p.sku ? <span className="cell-sub mono">{p.sku}</span> : null}
                  </th>
                  {r.destinations.map((d) => {
                    const c = cellMap.get(`${p.id}|${d.id}`);
                    return (
                      <td key={d.id}>
                        {c ? <CellBadge cell={c} /> : <span className="muted">—</span>}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {rows.length > MATRIX_ROWS ? (
          <p className="small">
            {allRows ? null : (
              <>
                Showing {MATRIX_ROWS} of {rows.length.toLocaleString()} products.{" "}
              </>
            )}
            <button type="button" className="link-button" onClick={() => setAllRows((a) => !a)}>
              {allRows ? "Show fewer" : "Show all"}
            </button>
          </p>
        ) : null}
        {onlyProblems && rows.length === 0 ? (
          <p className="muted small">No product has a failure.</p>
        ) : null}
      </section>
    </div>
  );
}
