// "Unpublish from…": the catalog's selection ended on the stores chosen here (the publish
// screen's store options), through POST /api/products/unpublish.
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { useDestinations } from "../../api/queries";
import { useNow } from "../../ui/clock";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { useToast } from "../../ui/toast-context";
import { DestinationOption } from "../publish/DestinationOption";
import { countOf } from "../../ui/format";

/** The most stores one unpublish takes (as for a publish). */
const MAX_STORES = 20;

export function UnpublishDialog({
  open,
  productIds,
  onClose,
}: {
  open: boolean;
  productIds: string[];
  onClose: () => void;
}) {
  const destinations = useDestinations();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [chosen, setChosen] = useState<string[]>([]);
  const close = () => {
    setChosen([]);
    onClose();
  };

  async function unpublish() {
    if (chosen.length === 0) throw new Error("Choose at least one store");
    const result = await endpoints.products.unpublish({
      productIds,
      destinationAccountIds: chosen,
    });
    const ending = result.jobs.length;
    toast.notify(
      ending > 0
        ? `Ending ${countOf(ending, "listing")}; ${result.skipped.length.toLocaleString()} not live there.`
        : "None of these products is live on the chosen stores.",
      "ok",
    );
    void queryClient.invalidateQueries({ queryKey: qk.products.all });
    void queryClient.invalidateQueries({ queryKey: qk.syncLogsAll });
  }

  const now = useNow(open);
  return (
    <ConfirmDialog
      open={open}
      title={`Unpublish ${countOf(productIds.length, "product")} from…`}
      confirmLabel="Unpublish"
      danger
      onConfirm={unpublish}
      onClose={close}
    >
      <p>Their listings on the stores you choose are ended. The products stay in your catalog.</p>
      <ul className="dest-options" aria-label="Stores">
        {(destinations.data?.items ?? []).map((d) => (
          <DestinationOption
            key={d.id}
            destination={d}
            now={now}
            channels={undefined}
            isOwner={false}
            chosen={chosen.includes(d.id)}
            full={chosen.length >= MAX_STORES}
            onChoose={(on) => setChosen((c) => (on ? [...c, d.id] : c.filter((id) => id !== d.id)))}
          />
        ))}
      </ul>
    </ConfirmDialog>
  );
}
