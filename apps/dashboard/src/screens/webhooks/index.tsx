import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { CreatedWebhook } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useSession } from "../../api/session";
import { NewSecret } from "../../ui/NewSecret";
import { PageHeader } from "../../ui/PageHeader";
import { Empty, ErrorMessage, Loading, Notice } from "../../ui/states";
import { AddEndpoint } from "./AddEndpoint";
import { EndpointCard } from "./EndpointCard";

/** Webhooks out: the org's endpoints, for owners (the API answers members 403). */
export function Webhooks() {
  const session = useSession();
  const isOwner = session.user.role === "owner";
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const list = useQuery({
    queryKey: qk.webhooks.all,
    queryFn: () => endpoints.webhooks.list(),
    enabled: isOwner,
  });

  useEffect(() => {
    document.title = "Webhooks · Catalog";
  }, []);

  const header = (
    <PageHeader
      title="Webhooks"
      description="Your systems learn of imports, publishes, syncs and channel reports as they happen: each event is POSTed to your endpoints, signed."
    />
  );
  if (!isOwner)
    return (
      <div className="page">
        {header}
        <Notice tone="info">
          <p>Only your organisation's owners manage webhooks.</p>
        </Notice>
      </div>
    );

  const items = list.data?.items ?? [];
  return (
    <div className="page">
      {header}
      {created ? (
        <NewSecret
          heading={`Endpoint added: ${created.endpoint.url}`}
          secret={created.secret}
          what="The signing secret"
          onDone={() => setCreated(null)}
        >
          Your system verifies each delivery's <code>webhook-signature</code> with it (any Standard
          Webhooks library does this).
        </NewSecret>
      ) : (
        <AddEndpoint onCreated={setCreated} />
      )}
      <ErrorMessage
        error={list.error}
        title="Could not load the endpoints"
        onRetry={() => void list.refetch()}
      />
      {list.isLoading ? (
        <Loading label="Loading the endpoints" />
      ) : list.data && items.length === 0 ? (
        <Empty title="No endpoints yet">Add one above to receive events.</Empty>
      ) : (
        items.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
      )}
    </div>
  );
}
