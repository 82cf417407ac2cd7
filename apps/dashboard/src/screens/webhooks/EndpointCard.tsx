// One endpoint: its URL and events, whether it is on (and why not), its actions and delivery log.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WebhookEndpoint } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { StatusBadge } from "../../ui/StatusBadge";
import { Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { formatDateTime } from "../../ui/format";
import { DeliveryLog } from "./DeliveryLog";

export function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [showLog, setShowLog] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: qk.webhooks.all });
  const fail = (what: string) => (err: unknown) =>
    toast.notify(`${what}: ${errorMessage(err)}`, "bad");

  const toggle = useMutation({
    mutationFn: () => endpoints.webhooks.update(endpoint.id, { enabled: !endpoint.enabled }),
    onSuccess: async (updated) => {
      await refresh();
      toast.notify(updated.enabled ? "Endpoint enabled" : "Endpoint disabled", "ok");
    },
    onError: fail("Could not change the endpoint"),
  });
  const test = useMutation({
    mutationFn: () => endpoints.webhooks.test(endpoint.id),
    onSuccess: async () => {
      setShowLog(true);
      await refresh();
      toast.notify("Test event sent: see the delivery log", "ok");
    },
    onError: fail("Could not send the test event"),
  });
  const remove = useMutation({
    mutationFn: () => endpoints.webhooks.remove(endpoint.id),
    onSuccess: async () => {
      await refresh();
      toast.notify("Endpoint deleted", "ok");
    },
  });

  return (
    <section className="card section" aria-label={`Endpoint ${endpoint.url}`}>
      <div className="card-body stack">
        <div className="row" style={{ justifyContent: "space-between", alignItems: "flex-start" }}>
          <div className="stack" style={{ gap: 4 }}>
            <h3 style={{ margin: 0, wordBreak: "break-all" }}>{endpoint.url}</h3>
            {endpoint.description ? (
              <p className="muted" style={{ margin: 0 }}>
                {endpoint.description}
              </p>
            ) : null}
            <p className="small" style={{ margin: 0 }}>
              {endpoint.events.map((e) => (
                <code key={e} style={{ marginRight: 6 }}>
                  {e}
                </code>
              ))}
            </p>
          </div>
          {endpoint.enabled ? (
            <StatusBadge status="active" label="Enabled" tone="ok" />
          ) : (
            <StatusBadge status="disabled" label="Disabled" tone="warn" />
          )}
        </div>
        {!endpoint.enabled ? (
          <Notice tone="warn">
            <p>
              Disabled since {formatDateTime(endpoint.disabledAt)}
              {endpoint.disabledReason
                ? ` because ${endpoint.disabledReason}.`
                : " by an owner."}{" "}
              Nothing is sent to it until it is enabled again.
            </p>
          </Notice>
        ) : endpoint.failingSince ? (
          <Notice tone="warn">
            <p>
              Deliveries have been failing since {formatDateTime(endpoint.failingSince)}; the
              endpoint is disabled if they keep failing for 5 days.
            </p>
          </Notice>
        ) : null}
        <div className="row" style={{ gap: 8, flexWrap: "wrap" }}>
          <button
            type="button"
            className="btn btn-sm"
            disabled={test.isPending}
            onClick={() => test.mutate()}
          >
            Send test event
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setShowLog((v) => !v)}>
            {showLog ? "Hide delivery log" : "Delivery log"}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={toggle.isPending}
            onClick={() => toggle.mutate()}
          >
            {endpoint.enabled ? "Disable" : "Enable"}
          </button>
          <button type="button" className="btn btn-sm btn-danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
        {showLog ? <DeliveryLog endpointId={endpoint.id} /> : null}
      </div>
      <ConfirmDialog
        open={deleting}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        danger
        onConfirm={() => remove.mutateAsync()}
        onClose={() => setDeleting(false)}
      >
        <p>
          Nothing more is sent to <code>{endpoint.url}</code>, and its delivery log is deleted.
        </p>
      </ConfirmDialog>
    </section>
  );
}
