// The bar under a ready preview: how many products will be stored, the rows left out, and
// "Store N products" (the left-out rows are sent as skipRows).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Import } from "@catalog/gateway/api-types";
import { errorMessage, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { formatDateTime, countOf } from "../../ui/format";
import { storeLabel } from "./rows";
import type { LeftOut } from "./useLeftOut";

export function StoreBar({ item: i, leftOut }: { item: Import; leftOut: LeftOut }) {
  const queryClient = useQueryClient();
  const c = i.counts;
  const storable = c.create + c.update;
  const toStore = Math.max(0, storable - leftOut.rows.size);
  const store = useMutation({
    mutationFn: () =>
      endpoints.imports.store(i.id, { skipRows: [...leftOut.rows].sort((a, b) => a - b) }),
    onSuccess: (updated) => {
      queryClient.setQueryData(qk.imports.detail(i.id), updated);
      void queryClient.invalidateQueries({ queryKey: qk.imports.all });
    },
    // Refused (e.g. it expired or was stored in another tab): show the import as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: qk.imports.detail(i.id) }),
  });

  return (
    <div className="selection-bar store-bar" role="region" aria-label="Store the preview">
      <span>
        <strong>{toStore.toLocaleString()}</strong> of {countOf(storable, "new or updated product")}{" "}
        will be stored
        {leftOut.rows.size > 0 ? (
          <>
            {" "}
            · {leftOut.rows.size.toLocaleString()} left out ·{" "}
            <button type="button" className="link-button" onClick={leftOut.clear}>
              include all
            </button>
          </>
        ) : null}
        <span className="store-bar-sub">
          Kept until {formatDateTime(i.expiresAt)}
          {c.error > 0 ? ` · ${countOf(c.error, "row")} with errors will not be stored` : ""}
        </span>
      </span>
      <span className="row">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => store.mutate()}
          disabled={store.isPending || toStore === 0}
        >
          {store.isPending ? "Storing…" : storeLabel(toStore)}
        </button>
      </span>
      {store.error ? (
        <p className="store-error" role="alert">
          {errorMessage(store.error)}
        </p>
      ) : null}
    </div>
  );
}
