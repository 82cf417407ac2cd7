import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreatedExtensionKey, ExtensionKey } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { formatDateTime, formatRelative } from "../../ui/format";
import { CreateKey } from "./CreateKey";
import { NewSecret } from "../../ui/NewSecret";

/**
 * How a key begins (csk_<prefix>_<secret>): what its owner can compare with the key they pasted.
 */
const keyStart = (prefix: string) => `csk_${prefix}_…`;

export function ExtensionKeys() {
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const queryClient = useQueryClient();
  const toast = useToast();
  const keys = useQuery({
    queryKey: qk.extensionKeys,
    queryFn: () => endpoints.extensionKeys.list(),
  });
  const [created, setCreated] = useState<CreatedExtensionKey | null>(null);
  const [revoking, setRevoking] = useState<ExtensionKey | null>(null);

  useEffect(() => {
    document.title = "Extension keys · Catalog";
  }, []);

  // Through the confirmation dialog, which shows a refusal.
  const revoke = useMutation({
    mutationFn: (key: ExtensionKey) => endpoints.extensionKeys.revoke(key.id),
    onSuccess: async (_result, key) => {
      await queryClient.invalidateQueries({ queryKey: qk.extensionKeys });
      if (created?.key.id === key.id) setCreated(null);
      toast.notify(`Revoked “${key.name}”`, "ok");
    },
  });

  const items = keys.data?.items ?? [];

  return (
    <div className="page">
      <PageHeader
        title="Extension keys"
        description="The browser extension sends the pages you capture to your catalog with one of these keys."
      />

      {isOwner ? (
        created ? (
          <NewSecret
            heading={`Key “${created.key.name}” created`}
            secret={created.secret}
            what="The new key"
            onDone={() => setCreated(null)}
          >
            Paste it into the extension's settings.
          </NewSecret>
        ) : (
          <CreateKey onCreated={setCreated} />
        )
      ) : (
        <Notice tone="info">
          <p>
            Only your organisation's owners can create or revoke keys. Ask one if you need a key for
            the extension.
          </p>
        </Notice>
      )}

      <ErrorMessage
        error={keys.error}
        title="Could not load the keys"
        onRetry={() => void keys.refetch()}
      />
      {keys.isLoading ? (
        <Loading label="Loading the keys" />
      ) : keys.data && items.length === 0 ? (
        <Empty title="No keys yet">
          {isOwner
            ? "Create one above, then paste it into the extension's settings."
            : "None of your organisation's owners has created a key yet."}
        </Empty>
      ) : items.length > 0 ? (
        <div className="table-wrap responsive">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key starts with</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                {isOwner ? (
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {items.map((k) => (
                <tr key={k.id}>
                  <td className="full">
                    <span className="cell-title">{k.name}</span>
                  </td>
                  <td data-label="Key starts with">
                    <code>{keyStart(k.prefix)}</code>
                  </td>
                  <td data-label="Created" className="nowrap" title={formatDateTime(k.createdAt)}>
                    {formatDateTime(k.createdAt)}
                  </td>
                  <td
                    data-label="Last used"
                    className="nowrap"
                    title={formatDateTime(k.lastUsedAt)}
                  >
                    {k.lastUsedAt ? formatRelative(k.lastUsedAt) : "Never"}
                  </td>
                  <td data-label="Status">
                    {k.revokedAt ? (
                      <StatusBadge
                        status="revoked"
                        label={`Revoked ${formatRelative(k.revokedAt)}`}
                      />
                    ) : (
                      <StatusBadge status="active" label="Active" tone="ok" />
                    )}
                  </td>
                  {isOwner ? (
                    <td data-label="">
                      {k.revokedAt ? null : (
                        <button
                          type="button"
                          className="btn btn-sm"
                          onClick={() => setRevoking(k)}
                          aria-label={`Revoke ${k.name}`}
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
        confirmLabel="Revoke key"
        danger
        onConfirm={() => (revoking ? revoke.mutateAsync(revoking) : undefined)}
        onClose={() => setRevoking(null)}
      >
        <p>
          The extension using the key that starts with{" "}
          <code>{revoking ? keyStart(revoking.prefix) : ""}</code> stops working at once: its
          captures are refused. This cannot be undone; create a new key to reconnect it.
        </p>
      </ConfirmDialog>
    </div>
  );
}
