// Ends one listing of a product on its store (POST /api/products/unpublish), after a
// confirmation; while the end runs, the product is reloaded until the listing says `ended`.
import { useEffect, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductDetail } from "@catalog/gateway/api-types";
import { qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { useToast } from "../../ui/toast-context";

import { isLive, type Listing } from "./listing-state";

export function UnpublishButton({
  product: p,
  listing: l,
  storeName,
}: {
  product: ProductDetail;
  listing: Listing;
  storeName: string;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const unpublish = useMutation({
    mutationFn: () =>
      endpoints.products.unpublish({
        productIds: [p.id],
        destinationAccountIds: [l.destinationAccountId],
      }),
    onSuccess: async (result) => {
      const skipped = result.skipped[0];
      toast.notify(
        skipped
          ? `Nothing to end on ${storeName}: ${skipped.reason}.`
          : `Ending “${p.title}” on ${storeName}.`,
        "ok",
      );
      await queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) });
      void queryClient.invalidateQueries({ queryKey: qk.syncLogsAll });
    },
  });

  // While the end runs, follow it here.
  const ending = l.status === "ending";
  useEffect(() => {
    if (!ending) return;
    const t = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: qk.products.detail(p.id) }),
      3000,
    );
    return () => clearInterval(t);
  }, [ending, p.id, queryClient]);

  if (!isLive(l)) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-sm btn-ghost danger-text"
        disabled={ending || unpublish.isPending}
        onClick={() => setConfirming(true)}
        aria-label={`Unpublish from ${storeName}`}
      >
        {ending ? "Ending…" : "Unpublish"}
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Unpublish “${p.title}” from ${storeName}?`}
        confirmLabel="Unpublish"
        danger
        onConfirm={() => unpublish.mutateAsync()}
        onClose={() => setConfirming(false)}
      >
        <p>
          The listing is ended on {storeName} (the store's own delete or withdraw). The product
          stays in your catalog and can be published there again.
        </p>
      </ConfirmDialog>
    </>
  );
}
