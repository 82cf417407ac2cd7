// One failed publish in a merchant's words (ui/failure-words.ts), folded to a line like every
// result; "Show all" opens the store's own message and the ids behind it. An unclassified failure
// (an old record) shows its message as it is.
import type { SyncLog } from "@catalog/gateway/api-types";
import { useChannels } from "../../api/channels";
import { failureText } from "../../ui/failure-words";
import { ResultText } from "./ResultText";

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
  if (!log.failure) return <ResultText tone="bad">{log.error}</ResultText>;
  const { text } = failureText(
    log.failure,
    { products: product, many: false, store },
    channels.data?.items.find((c) => c.channel === channel),
  );
  const details = (
    <p className="failure-details small">
      The store said: <span className="mono">{log.error}</span> (product{" "}
      <span className="mono">{log.productId}</span>, store{" "}
      <span className="mono">{log.destinationAccountId}</span>)
    </p>
  );
  return (
    <ResultText tone="bad" more={details}>
      {text}
    </ResultText>
  );
}
