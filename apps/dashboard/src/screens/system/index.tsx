import { useEffect, useState, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SystemAction, SystemView } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useDestinations } from "../../api/queries";
import { useSession } from "../../api/session";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/Toast";
import { formatDateTime, formatRelative } from "../../ui/format";

const REFRESH_MS = 5000;

export function System() {
  const session = useSession();
  useEffect(() => { document.title = "System · Catalog"; }, []);
  if (session.user.role !== "admin") {
    return (
      <div className="page">
        <PageHeader title="System" />
        <Empty title="Only platform operators can see this page">
          Queues, breakers and the dead-letter queue span every organisation, so they are for the service's operators.
        </Empty>
      </div>
    );
  }
  return <SystemPanel />;
}

interface PendingAction { body: SystemAction; title: string; text: ReactNode; confirmLabel: string }

function SystemPanel() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const destinations = useDestinations();
  const system = useQuery({ queryKey: qk.system, queryFn: () => endpoints.system.get(), refetchInterval: REFRESH_MS });
  const [pending, setPending] = useState<PendingAction | null>(null);

  const nameOf = (id: string) => destinations.data?.items.find((d) => d.id === id)?.name;
  const label = (id: string) => nameOf(id) ?? `Destination ${id.slice(0, 8)}`;

  // Every action goes through the confirmation dialog, which shows a refusal.
  const run = useMutation({
    mutationFn: (action: SystemAction) => endpoints.system.act(action),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: qk.system });
      void queryClient.invalidateQueries({ queryKey: qk.destinations });
      void queryClient.invalidateQueries({ queryKey: qk.syncLogsAll });
      const what = result.action === "replay_dlq" ? "publishes replayed" : result.action === "purge_dlq" ? "publishes purged" : "Redis keys deleted";
      toast.notify(`${result.affected.toLocaleString()} ${what}`, "ok");
    },
  });

  const replay = (destinationAccountId?: string, dead?: number): PendingAction => ({
    body: destinationAccountId ? { action: "replay_dlq", destinationAccountId } : { action: "replay_dlq" },
    title: destinationAccountId ? `Replay the dead publishes of ${label(destinationAccountId)}?` : "Replay every dead publish?",
    confirmLabel: "Replay",
    text: <p>{dead !== undefined ? `${dead.toLocaleString()} ` : "All "}publishes that ran out of attempts {destinationAccountId ? `on ${label(destinationAccountId)}` : "on every destination of every organisation"} go back to the queue with their attempts reset, and are sent to the stores again.</p>,
  });
  const purge = (destinationAccountId?: string, dead?: number): PendingAction => ({
    body: destinationAccountId ? { action: "purge_dlq", destinationAccountId } : { action: "purge_dlq" },
    title: destinationAccountId ? `Purge the dead publishes of ${label(destinationAccountId)}?` : "Purge the whole dead-letter queue?",
    confirmLabel: "Purge",
    text: <p>{dead !== undefined ? `${dead.toLocaleString()} ` : "All "}dead publishes {destinationAccountId ? `of ${label(destinationAccountId)}` : "of every organisation"} end as failed and will not be retried. Merchants can still publish those products again themselves.</p>,
  });
  const flush: PendingAction = {
    body: { action: "flush_redis" },
    title: "Flush Redis?",
    confirmLabel: "Delete every Redis key",
    text: (
      <>
        <p>This deletes <strong>every Redis key of this deployment</strong>: queued and delayed jobs, breakers, channel waits, rate-limit counters and caches.</p>
        <p style={{ marginBottom: 0 }}>PostgreSQL keeps the record, and the workers enqueue pending work again. Lab mode only.</p>
      </>
    ),
  };

  return (
    <div className="page">
      <PageHeader
        title="System"
        description="The service's health across every organisation."
        actions={<span className="small muted" role="status">Refreshing every {REFRESH_MS / 1000} s{system.dataUpdatedAt ? ` · updated ${new Date(system.dataUpdatedAt).toLocaleTimeString()}` : ""}</span>}
      />
      <ErrorMessage error={system.error} title="Could not load the system view" onRetry={() => void system.refetch()} />
      {system.isLoading ? <Loading label="Loading the system view" /> : system.data ? (
        <SystemBody data={system.data} label={label}
          onReplay={(id, dead) => setPending(replay(id, dead))}
          onPurge={(id, dead) => setPending(purge(id, dead))}
          onFlush={() => setPending(flush)} />
      ) : null}

      <ConfirmDialog
        open={pending !== null}
        title={pending?.title ?? ""}
        confirmLabel={pending?.confirmLabel ?? "Confirm"}
        danger={pending?.body.action !== "replay_dlq"}
        onConfirm={() => (pending ? run.mutateAsync(pending.body) : undefined)}
        onClose={() => setPending(null)}
      >
        {pending?.text}
      </ConfirmDialog>
    </div>
  );
}

function SystemBody({ data, label, onReplay, onPurge, onFlush }: {
  data: SystemView;
  label: (id: string) => string;
  onReplay: (id?: string, dead?: number) => void;
  onPurge: (id?: string, dead?: number) => void;
  onFlush: () => void;
}) {
  const breakers = new Map(data.breakers.map((b) => [b.destinationAccountId, b]));
  const ids = [...new Set([...data.queues.map((q) => q.destinationAccountId), ...data.breakers.map((b) => b.destinationAccountId)])];
  const queues = new Map(data.queues.map((q) => [q.destinationAccountId, q]));
  const openBreakers = data.breakers.filter((b) => b.state !== "closed").length;

  return (
    <>
      <div className="grid-3 section">
        <Health name="Redis" health={data.redis} />
        <Health name="Database" health={data.database} />
        <div className="card stat">
          <div className="stat-label">Dead publishes (every org)</div>
          <div className="stat-value">{data.dlq.total.toLocaleString()}</div>
          <div className="small muted">{openBreakers ? `${openBreakers} breaker${openBreakers === 1 ? "" : "s"} not closed` : "All breakers closed"}</div>
        </div>
      </div>

      <section className="section card" aria-labelledby="dlq-h">
        <div className="card-header">
          <h2 id="dlq-h">Dead-letter queue</h2>
          <div className="page-actions">
            <button type="button" className="btn" disabled={data.dlq.total === 0} onClick={() => onReplay(undefined, data.dlq.total)}>Replay all</button>
            <button type="button" className="btn" disabled={data.dlq.total === 0} onClick={() => onPurge(undefined, data.dlq.total)}>Purge all</button>
          </div>
        </div>
        <div className="card-body">
          <p className="muted" style={{ margin: 0 }}>
            {data.dlq.total === 0 ? "No publish has run out of attempts." : `${data.dlq.total.toLocaleString()} publishes ran out of attempts. Replay sends them again; purge gives up on them. Each destination's own are in the table below.`}
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="queues-h">
        <h2 id="queues-h" style={{ marginBottom: 8 }}>Queues and breakers by destination</h2>
        {!data.redis.ok ? <Notice tone="bad"><p>Redis is unreachable, so queue depths and breakers cannot be read.</p></Notice> : null}
        {ids.length === 0 ? <Empty title="No connected destinations">Queues appear here once an organisation connects a store.</Empty> : (
          <div className="table-wrap responsive">
            <table className="table">
              <thead>
                <tr>
                  <th>Destination</th><th>Breaker</th>
                  <th className="num">Waiting</th><th className="num">Active</th><th className="num">Delayed</th><th className="num">Failed</th><th className="num">Dead</th>
                  <th><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {ids.map((id) => {
                  const q = queues.get(id);
                  const b = breakers.get(id);
                  return (
                    <tr key={id}>
                      <td className="full"><span className="cell-title">{label(id)}</span><div className="cell-sub mono">{id}</div></td>
                      <td data-label="Breaker">
                        {b ? <StatusBadge status={b.state} /> : <span className="muted">—</span>}
                        {b && b.state !== "closed" && b.retryAt ? <div className="cell-sub" title={formatDateTime(b.retryAt)}>retries {formatRelative(b.retryAt)}</div> : null}
                      </td>
                      <td data-label="Waiting" className="num">{q?.waiting ?? "—"}</td>
                      <td data-label="Active" className="num">{q?.active ?? "—"}</td>
                      <td data-label="Delayed" className="num">{q?.delayed ?? "—"}</td>
                      <td data-label="Failed" className="num">{q?.failed ?? "—"}</td>
                      <td data-label="Dead" className="num">{q?.dead ?? "—"}</td>
                      <td data-label="">
                        <span className="row" style={{ gap: 6, flexWrap: "nowrap" }}>
                          <button type="button" className="btn btn-sm" disabled={!q?.dead} onClick={() => onReplay(id, q?.dead)} aria-label={`Replay the dead publishes of ${label(id)}`}>Replay</button>
                          <button type="button" className="btn btn-sm" disabled={!q?.dead} onClick={() => onPurge(id, q?.dead)} aria-label={`Purge the dead publishes of ${label(id)}`}>Purge</button>
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {data.labMode ? (
        <section className="section card" aria-labelledby="lab-h" style={{ borderColor: "#f0c5c0" }}>
          <div className="card-header"><h2 id="lab-h">Lab mode</h2><StatusBadge status="degraded" label="Lab mode on" /></div>
          <div className="card-body row" style={{ justifyContent: "space-between" }}>
            <p className="muted" style={{ margin: 0, flex: "1 1 300px" }}>Flushing Redis deletes every key of this deployment. Only for test environments.</p>
            <button type="button" className="btn btn-danger" onClick={onFlush}>Flush Redis…</button>
          </div>
        </section>
      ) : null}
    </>
  );
}

function Health({ name, health }: { name: string; health: SystemView["redis"] }) {
  return (
    // A named region, so "Redis: healthy" can be found (and is announced) on its own.
    <section className="card stat" aria-label={name}>
      <div className="row" style={{ justifyContent: "space-between" }}>
        <span className="stat-label">{name}</span>
        <StatusBadge status={health.ok ? "ok" : "down"} label={health.ok ? "Healthy" : "Down"} />
      </div>
      <div className="stat-value">{health.ok ? `${health.latencyMs} ms` : "—"}</div>
      <div className="small muted">{health.ok ? "round trip" : health.error ?? "not reachable"}</div>
    </section>
  );
}
