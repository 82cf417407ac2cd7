// A store's sync settings: whether its live listings follow catalog changes by themselves, and
// what a listing does when its product runs out of stock. Owners change them (each change is
// saved at once); members see them.
import { useState } from "react";
import type { Destination, DestinationPatch } from "@catalog/gateway/api-types";
import { errorMessage } from "../../api/client";
import { useUpdateDestination } from "./useUpdateDestination";

const POLICIES: { value: Destination["outOfStockPolicy"]; label: string }[] = [
  { value: "keepAtZero", label: "Keep the listing, at 0" },
  { value: "endAndRelist", label: "End it, and list it again when stock returns" },
];

function savedText(d: Destination, patch: DestinationPatch): string {
  if (patch.autoSync !== undefined)
    return patch.autoSync
      ? `“${d.name}” now keeps its listings in sync automatically`
      : `“${d.name}” no longer updates its listings by itself`;
  return `“${d.name}”: out-of-stock listings ${patch.outOfStockPolicy === "endAndRelist" ? "are ended and listed again on restock" : "stay at 0"}`;
}

export function SyncSettings({
  destination: d,
  isOwner,
}: {
  destination: Destination;
  isOwner: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  // Shown as chosen at once; put back if saving fails.
  const [shown, setShown] = useState({
    autoSync: d.autoSync,
    outOfStockPolicy: d.outOfStockPolicy,
  });
  const save = useUpdateDestination(
    d,
    (patch) => savedText(d, patch),
    () => setError(null),
  );
  const disabled = !isOwner || save.isPending;
  const change = (patch: Pick<DestinationPatch, "autoSync" | "outOfStockPolicy">) => {
    const before = shown;
    setShown({ ...shown, ...patch });
    save.mutate(patch, {
      onError: (err) => {
        setShown(before);
        setError(errorMessage(err));
      },
    });
  };
  const name = `oos-${d.id}`;

  return (
    <fieldset className="dest-sync" aria-label={`Sync settings of ${d.name}`}>
      <legend className="small">Sync</legend>
      <label className="dest-sync-toggle">
        <input
          type="checkbox"
          checked={shown.autoSync}
          disabled={disabled}
          onChange={(e) => change({ autoSync: e.target.checked })}
        />{" "}
        Keep listings in sync automatically
      </label>
      <div role="radiogroup" aria-label="When out of stock" className="dest-sync-policy">
        <span className="small muted">When out of stock:</span>
        {POLICIES.map((p) => (
          <label key={p.value}>
            <input
              type="radio"
              name={name}
              value={p.value}
              checked={shown.outOfStockPolicy === p.value}
              disabled={disabled}
              onChange={() => change({ outOfStockPolicy: p.value })}
            />{" "}
            {p.label}
          </label>
        ))}
      </div>
      {!isOwner ? <p className="small muted">Only owners change these.</p> : null}
      {error ? (
        <p className="error-text small" role="alert">
          Not saved: {error}
        </p>
      ) : null}
    </fieldset>
  );
}
