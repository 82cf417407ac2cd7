import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { CreatedExtensionKey } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { CredentialList } from "../../ui/CredentialList";
import { NewSecret } from "../../ui/NewSecret";
import { PageHeader } from "../../ui/PageHeader";
import { Notice } from "../../ui/states";
import { CreateKey } from "./CreateKey";

/**
 * How a key begins (csk_<prefix>_<secret>): what its owner can compare with the key they pasted.
 */
const keyStart = (prefix: string) => `csk_${prefix}_…`;

export function ExtensionKeys() {
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const keys = useQuery({
    queryKey: qk.extensionKeys,
    queryFn: () => endpoints.extensionKeys.list(),
  });
  const [created, setCreated] = useState<CreatedExtensionKey | null>(null);

  useEffect(() => {
    document.title = "Extension keys · Catalog";
  }, []);

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
            Only a fingerprint of it is stored. Paste it into the extension's settings.
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

      <CredentialList
        noun="key"
        list={keys}
        queryKey={qk.extensionKeys}
        start={keyStart}
        startInColumn
        column={{ header: "Key starts with", cell: (k) => <code>{keyStart(k.prefix)}</code> }}
        canRevoke={isOwner}
        revoke={(k) => endpoints.extensionKeys.revoke(k.id)}
        onRevoked={(k) => {
          if (created?.key.id === k.id) setCreated(null);
        }}
        revokeEffect={(start) => (
          <>
            The extension using the key that starts with {start} stops working at once: its captures
            are refused. This cannot be undone; create a new key to reconnect it.
          </>
        )}
        empty={
          isOwner
            ? "Create one above, then paste it into the extension's settings."
            : "None of your organisation's owners has created a key yet."
        }
      />
    </div>
  );
}
