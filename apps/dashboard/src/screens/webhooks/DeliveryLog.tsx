// One endpoint's deliveries, newest first: status, answer, attempts, and "Send again".
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { Pager } from "../../ui/Pager";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { formatDateTime, formatRelative } from "../../ui/format";

export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const toast = useToast();
  const log = useQuery({
    queryKey: qk.webhooks.deliveries(endpointId, page),
    queryFn: () => endpoints.webhooks.deliveries(endpointId, page),
    // Pending deliveries change on their own: look again while any is waiting.
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.status === "pending") ? 1000 : false,
  });
  const replay = useMutation({
    mutationFn: (deliveryId: string) => endpoints.webhooks.replay(endpointId, deliveryId),
    onSuccess: async () => {
      setPage(1);
      await queryClient.invalidateQueries({ queryKey: qk.webhooks.all });
      toast.notify("Sent again, with the same webhook-id", "ok");
    },
    onError: (err) => toast.notify(`Send again: ${errorMessage(err)}`, "bad"),
  });

  if (log.isLoading) return <Loading label="Loading the deliveries" />;
  if (log.error)
    return (
      <ErrorMessage
        error={log.error}
        title="Could not load the deliveries"
        onRetry={() => void log.refetch()}
      />
    );
  const data = log.data;
  if (!data || data.items.length === 0)
    return <Empty title="No deliveries yet">Send a test event to see one here.</Empty>;
  return (
    <div className="stack">
      <div className="table-wrap responsive">
        <table className="table" aria-label="Deliveries">
          <thead>
            <tr>
              <th>Event</th>
              <th>Status</th>
              <th>Answer</th>
              <th>Attempts</th>
              <th>Created</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((d) => (
              <tr key={d.id}>
                <td className="full">
                  <code>{d.eventType}</code>
                  <div className="small muted">{d.messageId}</div>
                  {d.error ? <div className="small">{d.error}</div> : null}
                </td>
                <td data-label="Status">
                  <StatusBadge
                    status={d.status}
                    label={
                      d.status === "succeeded"
                        ? "Succeeded"
                        : d.status === "failed"
                          ? "Failed"
                          : d.nextAttemptAt
                            ? `Pending, next try ${formatRelative(d.nextAttemptAt)}`
                            : "Pending"
                    }
                  />
                </td>
                <td data-label="Answer">{d.responseStatus ?? "—"}</td>
                <td data-label="Attempts">{d.attempts}</td>
                <td data-label="Created" className="nowrap" title={formatDateTime(d.createdAt)}>
                  {formatRelative(d.createdAt)}
                </td>
                <td data-label="">
                  <button
                    type="button"
                    className="btn btn-sm"
                    disabled={replay.isPending}
                    onClick={() => replay.mutate(d.id)}
                    aria-label={`Send ${d.eventType} again`}
                  >
                    Send again
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        page={data.page}
        totalPages={data.totalPages}
        total={data.total}
        noun={["delivery", "deliveries"]}
        onPage={setPage}
      />
    </div>
  );
}
