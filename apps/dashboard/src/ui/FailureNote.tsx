// One failed publish in a merchant's words (ui/failure-words.ts), the store's own message and the
// ids behind "Details"; an unclassified failure (an old record) shows its message as it is.
import type { SyncLog } from "@catalog/gateway/api-types";
import { useChannels } from "../api/channels";
import { failureText } from "./failure-words";

export function FailureNote({
  log,
  product,
  store,
  channel,
}: {
  log: Pick<SyncLog, "error" | "failure" | "productId" | "destinationAccountId">;
  product: string;
  store: string;
  channel: string | undefined;
}) {
  const channels = useChannels();
  if (!log.failure) return <span className="bad-text">{log.error}</span>;
  const { text } = failureText(
    log.failure,
    { products: product, many: false, store },
    channels.data?.items.find((c) => c.channel === channel),
  );
  return (
    <>
      <span className="bad-text">{text}</span>
      <details className="failure-details small">
        <summary>Details</summary>
        <span className="mono">{log.error}</span> (product{" "}
        <span className="mono">{log.productId}</span>, store{" "}
        <span className="mono">{log.destinationAccountId}</span>)
      </details>
    </>
  );
}
