import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { CreatedApiToken } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { CredentialList } from "../../ui/CredentialList";
import { NewSecret } from "../../ui/NewSecret";
import { PageHeader } from "../../ui/PageHeader";
import { Notice } from "../../ui/states";
import { CreateToken } from "./CreateToken";

/** How a token begins (cat_<prefix>_<secret>): what its owner can compare with the one in use. */
const tokenStart = (prefix: string) => `cat_${prefix}_…`;

/** API tokens for integrations: owners create, copy once, list and revoke them. */
export function ApiTokens() {
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const tokens = useQuery({
    queryKey: qk.apiTokens,
    queryFn: () => endpoints.apiTokens.list(),
    enabled: isOwner,
  });
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  useEffect(() => {
    document.title = "API tokens · Catalog";
  }, []);

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
          Only a fingerprint of it is stored. Put it in your integration's configuration and send it
          as <code>Authorization: Bearer …</code>.
        </NewSecret>
      ) : (
        <CreateToken onCreated={setCreated} />
      )}
      <CredentialList
        noun="token"
        list={tokens}
        queryKey={qk.apiTokens}
        start={tokenStart}
        column={{ header: "Scopes", cell: (t) => <div>{t.scopes.join(", ")}</div> }}
        canRevoke
        revoke={(t) => endpoints.apiTokens.revoke(t.id)}
        onRevoked={(t) => {
          if (created?.token.id === t.id) setCreated(null);
        }}
        revokeEffect={(start) => (
          <>
            The system using the token that starts with {start} is refused from its next request on.
            This cannot be undone; create a new token to reconnect it.
          </>
        )}
        empty="Create one above for each system that calls the API."
      />
    </div>
  );
}
