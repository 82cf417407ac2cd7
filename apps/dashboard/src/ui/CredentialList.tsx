// The list of an org's credentials (extension keys, API tokens): name and how it begins, one column
// of the kind's own, when it was created and last used, whether it still works, and Revoke through
// a confirmation.
import { useState, type ReactNode } from "react";
import { useMutation, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useNow } from "./clock";
import { ConfirmDialog } from "./ConfirmDialog";
import { formatDateTime, formatRelative } from "./format";
import { StatusBadge } from "./StatusBadge";
import { Empty, ErrorMessage, Loading } from "./states";
import { useToast } from "./toast-context";

export interface Credential {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  expiresAt?: string | null;
  /** Who created it, when the kind records it. */
  createdBy?: string;
}

function CredentialStatus({ item }: { item: Credential }) {
  const now = useNow(Boolean(item.expiresAt), 60_000);
  if (item.revokedAt)
    return <StatusBadge status="revoked" label={`Revoked ${formatRelative(item.revokedAt)}`} />;
  if (item.expiresAt && Date.parse(item.expiresAt) <= now)
    return <StatusBadge status="expired" label={`Expired ${formatRelative(item.expiresAt)}`} />;
  return (
    <div>
      <StatusBadge status="active" label="Active" tone="ok" />
      {item.expiresAt ? (
        <div className="small muted">expires {formatRelative(item.expiresAt)}</div>
      ) : null}
    </div>
  );
}

export function CredentialList<T extends Credential>({
  noun,
  list,
  queryKey,
  start,
  column,
  startInColumn = false,
  canRevoke,
  revoke,
  onRevoked,
  revokeEffect,
  empty,
}: {
  /** "key", "token": in "Loading the keys", "Revoke key". */
  noun: string;
  list: UseQueryResult<{ items: T[] }>;
  /** The list's query key, refreshed after a revoke. */
  queryKey: readonly unknown[];
  /** How one begins, e.g. "csk_ab12cd34_…": what its owner compares with the one in use. */
  start: (prefix: string) => string;
  /** The kind's own column, after the name. */
  column: { header: string; cell: (item: T) => ReactNode };
  /** The beginning shown in the kind's column rather than under the name. */
  startInColumn?: boolean;
  canRevoke: boolean;
  revoke: (item: T) => Promise<unknown>;
  onRevoked: (item: T) => void;
  /** What revoking stops, given the beginning to recognise it by. */
  revokeEffect: (start: ReactNode) => ReactNode;
  empty: ReactNode;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [revoking, setRevoking] = useState<T | null>(null);
  // Through the confirmation dialog, which shows a refusal.
  const revoked = useMutation({
    mutationFn: revoke,
    onSuccess: async (_result, item) => {
      await queryClient.invalidateQueries({ queryKey });
      onRevoked(item);
      toast.notify(`Revoked “${item.name}”`, "ok");
    },
  });
  const items = list.data?.items ?? [];

  return (
    <>
      <ErrorMessage
        error={list.error}
        title={`Could not load the ${noun}s`}
        onRetry={() => void list.refetch()}
      />
      {list.isLoading ? (
        <Loading label={`Loading the ${noun}s`} />
      ) : list.data && items.length === 0 ? (
        <Empty title={`No ${noun}s yet`}>{empty}</Empty>
      ) : items.length > 0 ? (
        <div className="table-wrap responsive">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>{column.header}</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                {canRevoke ? (
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <td className="full">
                    <span className="cell-title">{item.name}</span>
                    {startInColumn ? null : (
                      <div>
                        <code className="small muted">{start(item.prefix)}</code>
                      </div>
                    )}
                  </td>
                  <td data-label={column.header}>{column.cell(item)}</td>
                  <td
                    data-label="Created"
                    className="nowrap"
                    title={formatDateTime(item.createdAt)}
                  >
                    <div>
                      {formatDateTime(item.createdAt)}
                      {item.createdBy ? (
                        <div className="small muted">by {item.createdBy}</div>
                      ) : null}
                    </div>
                  </td>
                  <td
                    data-label="Last used"
                    className="nowrap"
                    title={formatDateTime(item.lastUsedAt)}
                  >
                    {item.lastUsedAt ? formatRelative(item.lastUsedAt) : "Never"}
                  </td>
                  <td data-label="Status">
                    <CredentialStatus item={item} />
                  </td>
                  {canRevoke ? (
                    <td data-label="">
                      {item.revokedAt ? null : (
                        <button
                          type="button"
                          className="btn btn-sm"
                          onClick={() => setRevoking(item)}
                          aria-label={`Revoke ${item.name}`}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        confirmLabel={`Revoke ${noun}`}
        danger
        onConfirm={() => (revoking ? revoked.mutateAsync(revoking) : undefined)}
        onClose={() => setRevoking(null)}
      >
        <p>{revokeEffect(<code>{revoking ? start(revoking.prefix) : ""}</code>)}</p>
      </ConfirmDialog>
    </>
  );
}
