import { useEffect, useState, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SystemAction } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useDestinations } from "../../api/queries";
import { useSession } from "../../api/session";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { PageHeader } from "../../ui/PageHeader";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { SystemBody } from "./SystemBody";

const REFRESH_MS = 5000;

export function System() {
  const session = useSession();
  useEffect(() => {
    document.title = "System · Catalog";
  }, []);
  if (session.user.role !== "admin") {
    return (
      <div className="page">
        <PageHeader title="System" />
        <Empty title="Only platform operators can see this page">
          Queues, breakers and the dead-letter queue span every organisation, so they are for the
          service's operators.
        </Empty>
      </div>
    );
  }
  return <SystemPanel />;
}

interface PendingAction {
  body: SystemAction;
  title: string;
  text: ReactNode;
  confirmLabel: string;
}

function SystemPanel() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const destinations = useDestinations();
  const system = useQuery({
    queryKey: qk.system,
    queryFn: () => endpoints.system.get(),
    refetchInterval: REFRESH_MS,
  });
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
      const what =
        result.action === "replay_dlq"
          ? "publishes replayed"
          : result.action === "purge_dlq"
            ? "publishes purged"
            : "Redis keys deleted";
      toast.notify(`${result.affected.toLocaleString()} ${what}`, "ok");
    },
  });

  const replay = (destinationAccountId?: string, dead?: number): PendingAction => ({
    body: destinationAccountId
      ? { action: "replay_dlq", destinationAccountId }
      : { action: "replay_dlq" },
    title: destinationAccountId
      ? `Replay the dead publishes of ${label(destinationAccountId)}?`
      : "Replay every dead publish?",
    confirmLabel: "Replay",
    text: (
      <p>
        {dead !== undefined ? `${dead.toLocaleString()} ` : "All "}publishes that ran out of
        attempts{" "}
        {destinationAccountId
          ? `on ${label(destinationAccountId)}`
          : "on every destination of every organisation"}{" "}
        go back to the queue with their attempts reset, and are sent to the stores again.
      </p>
    ),
  });
  const purge = (destinationAccountId?: string, dead?: number): PendingAction => ({
    body: destinationAccountId
      ? { action: "purge_dlq", destinationAccountId }
      : { action: "purge_dlq" },
    title: destinationAccountId
      ? `Purge the dead publishes of ${label(destinationAccountId)}?`
      : "Purge the whole dead-letter queue?",
    confirmLabel: "Purge",
    text: (
      <p>
        {dead !== undefined ? `${dead.toLocaleString()} ` : "All "}dead publishes{" "}
        {destinationAccountId ? `of ${label(destinationAccountId)}` : "of every organisation"} end
        as failed and will not be retried. Merchants can still publish those products again
        themselves.
      </p>
    ),
  });
  const flush: PendingAction = {
    body: { action: "flush_redis" },
    title: "Flush Redis?",
    confirmLabel: "Delete every Redis key",
    text: (
      <>
        <p>
          This deletes <strong>every Redis key of this deployment</strong>: queued and delayed jobs,
          breakers, channel waits, rate-limit counters and caches.
        </p>
        <p style={{ marginBottom: 0 }}>
          PostgreSQL keeps the record, and the workers enqueue pending work again. Lab mode only.
        </p>
      </>
    ),
  };

  return (
    <div className="page">
      <PageHeader
        title="System"
        description="The service's health across every organisation."
        actions={
          <span className="small muted" role="status">
            Refreshing every {REFRESH_MS / 1000} s
            {system.dataUpdatedAt
              ? ` · updated ${new Date(system.dataUpdatedAt).toLocaleTimeString()}`
              : ""}
          </span>
        }
      />
      <ErrorMessage
        error={system.error}
        title="Could not load the system view"
        onRetry={() => void system.refetch()}
      />
      {system.isLoading ? (
        <Loading label="Loading the system view" />
      ) : system.data ? (
        <SystemBody
          data={system.data}
          label={label}
          onReplay={(id, dead) => setPending(replay(id, dead))}
          onPurge={(id, dead) => setPending(purge(id, dead))}
          onFlush={() => setPending(flush)}
        />
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
