// The operator's view: Redis and database health, the dead-letter queue, queues and breakers per
// destination, and the actions on them.
import type { SystemView } from "@catalog/gateway/api-types";
import { breakerLabel } from "../../ui/destination-state";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, Notice } from "../../ui/states";
import { formatDateTime, formatRelative } from "../../ui/format";

export function SystemBody({
  data,
  label,
  onReplay,
  onPurge,
  onFlush,
}: {
  data: SystemView;
  label: (id: string) => string;
  onReplay: (id?: string, dead?: number) => void;
  onPurge: (id?: string, dead?: number) => void;
  onFlush: () => void;
}) {
  const breakers = new Map(data.breakers.map((b) => [b.destinationAccountId, b]));
  const ids = [
    ...new Set([
      ...data.queues.map((q) => q.destinationAccountId),
      ...data.breakers.map((b) => b.destinationAccountId),
    ]),
  ];
  const queues = new Map(data.queues.map((q) => [q.destinationAccountId, q]));
  const openBreakers = data.breakers.filter((b) => b.state !== "closed").length;

  return (
    <>
      <div className="grid-3 section">
        <Health name="Redis" health={data.redis} />
        <Health name="Database" health={data.database} />
        <div className="card stat">
          <div className="stat-label">Publishes that gave up (every org)</div>
          <div className="stat-value">{data.dlq.total.toLocaleString()}</div>
          <div className="small muted">
            {openBreakers
              ? `${openBreakers} destination${openBreakers === 1 ? "" : "s"} paused or trying again`
              : "Every destination sending normally"}
          </div>
        </div>
      </div>

      <section className="section card" aria-labelledby="dlq-h">
        <div className="card-header">
          <h2 id="dlq-h">Dead-letter queue: publishes that gave up</h2>
          <div className="page-actions">
            <button
              type="button"
              className="btn"
              disabled={data.dlq.total === 0}
              onClick={() => onReplay(undefined, data.dlq.total)}
            >
              Replay all
            </button>
            <button
              type="button"
              className="btn"
              disabled={data.dlq.total === 0}
              onClick={() => onPurge(undefined, data.dlq.total)}
            >
              Purge all
            </button>
          </div>
        </div>
        <div className="card-body">
          <p className="muted" style={{ margin: 0 }}>
            {data.dlq.total === 0
              ? "No publish has run out of attempts."
              : `${data.dlq.total.toLocaleString()} publishes ran out of attempts. Replay sends them again; purge gives up on them. Each destination's own are in the table below.`}
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="queues-h">
        <h2 id="queues-h" style={{ marginBottom: 8 }}>
          Queues and breakers by destination
        </h2>
        {!data.redis.ok ? (
          <Notice tone="bad">
            <p>Redis is unreachable, so queue depths and breakers cannot be read.</p>
          </Notice>
        ) : null}
        {ids.length === 0 ? (
          <Empty title="No connected destinations">
            Queues appear here once an organisation connects a store.
          </Empty>
        ) : (
          <div className="table-wrap responsive">
            <table className="table">
              <thead>
                <tr>
                  <th>Destination</th>
                  <th>Sending</th>
                  <th className="num">Waiting</th>
                  <th className="num">Active</th>
                  <th className="num">Delayed</th>
                  <th className="num">Failed</th>
                  <th className="num">Gave up</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {ids.map((id) => {
                  const q = queues.get(id);
                  const b = breakers.get(id);
                  return (
                    <tr key={id}>
                      <td className="full">
                        <span className="cell-title">{label(id)}</span>
                        <div className="cell-sub mono">{id}</div>
                      </td>
                      <td data-label="Sending">
                        {b ? (
                          <StatusBadge
                            status={b.state}
                            label={breakerLabel(b.state)}
                            title={`Circuit breaker ${b.state}`}
                          />
                        ) : (
                          <span className="muted">—</span>
                        )}
                        {b && b.state !== "closed" && b.retryAt ? (
                          <div className="cell-sub" title={formatDateTime(b.retryAt)}>
                            retries {formatRelative(b.retryAt)}
                          </div>
                        ) : null}
                      </td>
                      <td data-label="Waiting" className="num">
                        {q?.waiting ?? "—"}
                      </td>
                      <td data-label="Active" className="num">
                        {q?.active ?? "—"}
                      </td>
                      <td data-label="Delayed" className="num">
                        {q?.delayed ?? "—"}
                      </td>
                      <td data-label="Failed" className="num">
                        {q?.failed ?? "—"}
                      </td>
                      <td data-label="Gave up" className="num">
                        {q?.dead ?? "—"}
                      </td>
                      <td data-label="">
                        <span className="row" style={{ gap: 6, flexWrap: "nowrap" }}>
                          <button
                            type="button"
                            className="btn btn-sm"
                            disabled={!q?.dead}
                            onClick={() => onReplay(id, q?.dead)}
                            aria-label={`Replay the dead publishes of ${label(id)}`}
                          >
                            Replay
                          </button>
                          <button
                            type="button"
                            className="btn btn-sm"
                            disabled={!q?.dead}
                            onClick={() => onPurge(id, q?.dead)}
                            aria-label={`Purge the dead publishes of ${label(id)}`}
                          >
                            Purge
                          </button>
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
        <section
          className="section card"
          aria-labelledby="lab-h"
          style={{ borderColor: "#f0c5c0" }}
        >
          <div className="card-header">
            <h2 id="lab-h">Lab mode</h2>
            <StatusBadge status="degraded" label="Lab mode on" />
          </div>
          <div className="card-body row" style={{ justifyContent: "space-between" }}>
            <p className="muted" style={{ margin: 0, flex: "1 1 300px" }}>
              Flushing Redis deletes every key of this deployment. Only for test environments.
            </p>
            <button type="button" className="btn btn-danger" onClick={onFlush}>
              Flush Redis…
            </button>
          </div>
        </section>
      ) : null}
    </>
  );
}

export function Health({ name, health }: { name: string; health: SystemView["redis"] }) {
  return (
    // A named region, so "Redis: healthy" can be found (and is announced) on its own.
    <section className="card stat" aria-label={name}>
      <div className="row" style={{ justifyContent: "space-between" }}>
        <span className="stat-label">{name}</span>
        <StatusBadge status={health.ok ? "ok" : "down"} label={health.ok ? "Healthy" : "Down"} />
      </div>
      <div className="stat-value">{health.ok ? `${health.latencyMs} ms` : "—"}</div>
      <div className="small muted">
        {health.ok ? "round trip" : (health.error ?? "not reachable")}
      </div>
    </section>
  );
}
