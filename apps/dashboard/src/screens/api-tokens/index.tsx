import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiToken, CreatedApiToken } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { NewSecret } from "../../ui/NewSecret";
import { PageHeader } from "../../ui/PageHeader";
import { StatusBadge } from "../../ui/StatusBadge";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { formatDateTime, formatRelative } from "../../ui/format";
import { useNow } from "../../ui/clock";
import { CreateToken } from "./CreateToken";

/** How a token begins (cat_<prefix>_<secret>): what its owner can compare with the one in use. */
const tokenStart = (prefix: string) => `cat_${prefix}_…`;

function TokenStatus({ token }: { token: ApiToken }) {
  const now = useNow(true, 60_000);
  if (token.revokedAt)
    return <StatusBadge status="revoked" label={`Revoked ${formatRelative(token.revokedAt)}`} />;
  if (token.expiresAt && Date.parse(token.expiresAt) <= now)
    return <StatusBadge status="expired" label={`Expired ${formatRelative(token.expiresAt)}`} />;
  return (
    <div>
      <StatusBadge status="active" label="Active" tone="ok" />
      {token.expiresAt ? (
        <div className="small muted">expires {formatRelative(token.expiresAt)}</div>
      ) : null}
    </div>
  );
}

/** API tokens for integrations: owners create, copy once, list and revoke them. */
export function ApiTokens() {
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const queryClient = useQueryClient();
  const toast = useToast();
  const tokens = useQuery({
    queryKey: qk.apiTokens,
    queryFn: () => endpoints.apiTokens.list(),
    enabled: isOwner,
  });
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  useEffect(() => {
    document.title = "API tokens · Catalog";
  }, []);

  const revoke = useMutation({
    mutationFn: (token: ApiToken) => endpoints.apiTokens.revoke(token.id),
    onSuccess: async (_result, token) => {
      await queryClient.invalidateQueries({ queryKey: qk.apiTokens });
      if (created?.token.id === token.id) setCreated(null);
      toast.notify(`Revoked “${token.name}”`, "ok");
    },
  });

  const header = (
    <PageHeader
      title="API tokens"
      description="Your own systems call this service with a token: Authorization: Bearer <token>. Each token may do only what its scopes allow, and acts as the owner who created it."
    />
  );
  if (!isOwner)
    return (
      <div className="page">
        {header}
        <Notice tone="info">
          <p>Only your organisation's owners manage API tokens.</p>
        </Notice>
      </div>
    );

  const items = tokens.data?.items ?? [];
  return (
    <div className="page">
      {header}
      {created ? (
        <NewSecret
          heading={`Token “${created.token.name}” created`}
          secret={created.secret}
          what="The new token"
          onDone={() => setCreated(null)}
        >
          Put it in your integration's configuration and send it as{" "}
          <code>Authorization: Bearer …</code>.
        </NewSecret>
      ) : (
        <CreateToken onCreated={setCreated} />
      )}

      <ErrorMessage
        error={tokens.error}
        title="Could not load the tokens"
        onRetry={() => void tokens.refetch()}
      />
      {tokens.isLoading ? (
        <Loading label="Loading the tokens" />
      ) : tokens.data && items.length === 0 ? (
        <Empty title="No tokens yet">Create one above for each system that calls the API.</Empty>
      ) : items.length > 0 ? (
        <div className="table-wrap responsive">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Scopes</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((t) => (
                <tr key={t.id}>
                  <td className="full">
                    <span className="cell-title">{t.name}</span>
                    <br />
                    <code className="small muted">{tokenStart(t.prefix)}</code>
                  </td>
                  <td data-label="Scopes">
                    <div>{t.scopes.join(", ")}</div>
                  </td>
                  <td data-label="Created" className="nowrap" title={formatDateTime(t.createdAt)}>
                    <div>
                      {formatDateTime(t.createdAt)}
                      <div className="small muted">by {t.createdBy}</div>
                    </div>
                  </td>
                  <td
                    data-label="Last used"
                    className="nowrap"
                    title={formatDateTime(t.lastUsedAt)}
                  >
                    {t.lastUsedAt ? formatRelative(t.lastUsedAt) : "Never"}
                  </td>
                  <td data-label="Status">
                    <TokenStatus token={t} />
                  </td>
                  <td data-label="">
                    {t.revokedAt ? null : (
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() => setRevoking(t)}
                        aria-label={`Revoke ${t.name}`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        confirmLabel="Revoke token"
        danger
        onConfirm={() => (revoking ? revoke.mutateAsync(revoking) : undefined)}
        onClose={() => setRevoking(null)}
      >
        <p>
          The system using the token that starts with{" "}
          <code>{revoking ? tokenStart(revoking.prefix) : ""}</code> is refused from its next
          request on. This cannot be undone; create a new token to reconnect it.
        </p>
      </ConfirmDialog>
    </div>
  );
}
