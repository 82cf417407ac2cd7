// A product's listing on each store: status, automatic sync state, remote link, the last error
// and Retry.
import { useEffect, useState } from "react";
import { Link } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductDetail } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { destinationLabel, useChannelName, useDestinations } from "../../api/queries";
import { ChannelReports } from "../../ui/ChannelReports";
import { StatusBadge } from "../../ui/StatusBadge";
import { useToast } from "../../ui/toast-context";
import { formatDateTime } from "../../ui/format";
import { listingBusy, syncSummary } from "./listing-sync";
import { UnpublishButton } from "./UnpublishButton";

export function Listings({ product: p }: { product: ProductDetail }) {
  const channelName = useChannelName();
  const destinations = useDestinations();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const retry = useMutation({
    mutationFn: (destinationAccountId: string) =>
      endpoints.products.publish({
        productIds: [p.id],
        destinationAccountIds: [destinationAccountId],
      }),
    onMutate: (destinationAccountId) => setErrors((e) => ({ ...e, [destinationAccountId]: "" })),
    onSuccess: (result, destinationAccountId) => {
      toast.notify(
        `Publishing “${p.title}” to ${destinationLabel(destinations.data?.items, destinationAccountId)} again.`,
        "ok",
        result.runId ? { label: "Follow the run", href: `/runs/${result.runId}` } : undefined,
      );
      void queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) });
      void queryClient.invalidateQueries({ queryKey: qk.syncLogsAll });
      if (result.runId) void queryClient.invalidateQueries({ queryKey: qk.runs.all });
    },
    onError: (err, destinationAccountId) =>
      setErrors((e) => ({ ...e, [destinationAccountId]: errorMessage(err) })),
  });
  const busy = p.listings.some(listingBusy);

  // While a publish is under way, follow it here.
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) }),
      3000,
    );
    return () => clearInterval(t);
  }, [busy, p.id, queryClient]);

  return (
    <section className="section" aria-labelledby="listings-h">
      <div className="row" style={{ marginBottom: 8, justifyContent: "space-between" }}>
        <h2 id="listings-h">Listings</h2>
        <Link to="/sync-logs" search={{ productId: p.id }} className="small">
          Sync log for this product
        </Link>
      </div>
      {p.listings.length === 0 ? (
        <div className="card card-body">
          <p className="muted" style={{ margin: 0 }}>
            Not published to any store yet.{" "}
            <Link to="/publish" search={{ ids: p.id }}>
              Publish it
            </Link>
            .
          </p>
        </div>
      ) : (
        <div className="table-wrap responsive">
          <table className="table">
            <thead>
              <tr>
                <th>Destination</th>
                <th>Status</th>
                <th>On the store</th>
                <th>Last synced</th>
                <th>Last error</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {p.listings.map((l) => {
                const pending = retry.isPending && retry.variables === l.destinationAccountId;
                const error = errors[l.destinationAccountId];
                const sync = syncSummary(l);
                return (
                  <tr key={l.destinationAccountId}>
                    <td className="full">
                      <span className="cell-title">
                        {destinationLabel(
                          destinations.data?.items,
                          l.destinationAccountId,
                          l.channel,
                          channelName,
                        )}
                      </span>
                      <div className="cell-sub">{channelName(l.channel)}</div>
                    </td>
                    <td data-label="Status">
                      {/* One box: a stacked card gives each child of a cell a place of its own. */}
                      <div>
                        <StatusBadge status={l.status} />
                        {sync ? (
                          <div
                            className="cell-sub"
                            data-testid="listing-sync"
                            style={sync.tone === "bad" ? { color: "var(--bad)" } : undefined}
                          >
                            {sync.text}
                          </div>
                        ) : null}
                        <ChannelReports
                          reports={l.channelReports}
                          remoteId={l.remoteId}
                          channel={channelName(l.channel)}
                        />
                      </div>
                    </td>
                    <td data-label="On the store" className="wrap-anywhere">
                      {l.remoteUrl ? (
                        <a href={l.remoteUrl} target="_blank" rel="noreferrer noopener">
                          Open listing
                        </a>
                      ) : l.remoteId ? (
                        <span className="mono">{l.remoteId}</span>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td data-label="Last synced" className="nowrap">
                      {formatDateTime(l.lastSyncedAt)}
                    </td>
                    <td data-label="Last error" className="wrap-anywhere">
                      {l.lastError ? (
                        <span style={{ color: "var(--bad)" }}>{l.lastError}</span>
                      ) : (
                        "—"
                      )}
                      {error ? (
                        <div className="field-error" role="alert">
                          {error}
                        </div>
                      ) : null}
                    </td>
                    <td data-label="">
                      <div className="row">
                        <button
                          type="button"
                          className="btn btn-sm"
                          disabled={
                            pending ||
                            l.status === "queued" ||
                            l.status === "publishing" ||
                            l.status === "ending"
                          }
                          onClick={() => retry.mutate(l.destinationAccountId)}
                          aria-label={`${l.status === "failed" ? "Retry" : "Publish again"} to ${destinationLabel(destinations.data?.items, l.destinationAccountId, l.channel, channelName)}`}
                        >
                          {pending
                            ? "Retrying…"
                            : l.status === "failed"
                              ? "Retry"
                              : "Publish again"}
                        </button>
                        <UnpublishButton
                          product={p}
                          listing={l}
                          storeName={destinationLabel(
                            destinations.data?.items,
                            l.destinationAccountId,
                            l.channel,
                            channelName,
                          )}
                        />
                      </div>
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
