// Every change to the product, newest first, field by field; older pages on request.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorMessage, Loading } from "../../ui/states";
import { FIELD_LABELS, formatDateTime } from "../../ui/format";
import { ACTION_LABELS, describe, isEmpty } from "./history-values";
import { historyQuery, useActorLabel } from "./useHistory";

export function History({ productId }: { productId: string }) {
  const actorLabel = useActorLabel();
  const [pages, setPages] = useState(1);
  const history = useQuery({ ...historyQuery(productId, pages), placeholderData: (prev) => prev });

  return (
    <section className="section card" aria-labelledby="history-h">
      <div className="card-header">
        <h2 id="history-h">History</h2>
        {history.data ? (
          <span className="muted small">
            {history.data.total} {history.data.total === 1 ? "entry" : "entries"}
          </span>
        ) : null}
      </div>
      <div className="card-body" style={{ paddingTop: 8, paddingBottom: 8 }}>
        <ErrorMessage
          error={history.error}
          title="Could not load the history"
          onRetry={() => void history.refetch()}
        />
        {history.isLoading ? (
          <Loading label="Loading the history" />
        ) : history.data && history.data.items.length === 0 ? (
          <p className="muted">No changes recorded yet.</p>
        ) : (
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {history.data?.items.map((entry) => {
              // A field that went from nothing to nothing (an import's empty lists) says nothing.
              const changes = Object.entries(entry.changes).filter(
                ([, c]) => !(isEmpty(c.from) && isEmpty(c.to)),
              );
              return (
                <li key={entry.id} className="history-entry">
                  <div className="row" style={{ justifyContent: "space-between" }}>
                    <span>
                      <strong>{ACTION_LABELS[entry.action] ?? entry.action}</strong> by{" "}
                      {actorLabel(entry.actor)}
                    </span>
                    <time
                      className="muted small"
                      dateTime={entry.at}
                      title={formatDateTime(entry.at)}
                    >
                      {formatDateTime(entry.at)}
                    </time>
                  </div>
                  {changes.length > 0 ? (
                    <ul className="history-changes">
                      {changes.map(([field, change]) => (
                        <li key={field}>
                          <span className="muted">{FIELD_LABELS[field] ?? field}: </span>
                          {isEmpty(change.from) ? (
                            <span className="muted">(empty)</span>
                          ) : (
                            <span className="diff-from">{describe(field, change.from)}</span>
                          )}
                          <span aria-label="changed to"> → </span>
                          {isEmpty(change.to) ? (
                            <span className="muted">(empty)</span>
                          ) : (
                            <span className="diff-to">{describe(field, change.to)}</span>
                          )}
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
          <button
            type="button"
            className="btn btn-sm"
            style={{ margin: "8px 0" }}
            disabled={history.isFetching}
            onClick={() => setPages((n) => n + 1)}
          >
            {history.isFetching ? "Loading…" : "Show older changes"}
          </button>
        ) : null}
      </div>
    </section>
  );
}
