import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation } from "@tanstack/react-query";
import type { Import } from "@catalog/gateway/api-types";
import { errorMessage } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { MAX_SELECTION, useSelection } from "../../ui/selection";
import { useFocusOnMount } from "../../ui/focus";
import { storedProductIds } from "./rows";

/** Every product the import created or updated, page by page. */
async function collectStored(importId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const rows = await endpoints.imports.rows(importId, { page, pageSize: 100 });
    ids.push(...storedProductIds(rows.items));
    if (page >= rows.totalPages) return ids;
  }
}

/** What storing did, and the ways on: publish these products, the catalog, another import. */
export function StoredResult({
  item,
  result: r,
}: {
  item: Import;
  result: NonNullable<Import["result"]>;
}) {
  const navigate = useNavigate();
  const selection = useSelection();
  // The products this import created or updated become the selection, then Publish opens.
  const publish = useMutation({
    mutationFn: () => collectStored(item.id),
    onSuccess: async (ids) => {
      selection.replace(ids);
      await navigate({ to: "/publish", search: ids.length <= 50 ? { ids: ids.join(",") } : {} });
    },
  });
  // It replaces the store bar whose button had focus.
  const ref = useFocusOnMount<HTMLDivElement>();
  const changed = r.created + r.updated;
  const canPublish = changed > 0 && changed <= MAX_SELECTION;

  return (
    <div className="alert alert-ok stored-result" role="status" ref={ref}>
      <div>
        <p>
          <strong>Stored.</strong> {r.created.toLocaleString()} created,{" "}
          {r.updated.toLocaleString()} updated, {r.unchanged.toLocaleString()} unchanged,{" "}
          {r.skipped.toLocaleString()} left out.
        </p>
        {publish.error ? (
          <p className="error-text">
            Could not collect the products: {errorMessage(publish.error)}
          </p>
        ) : null}
      </div>
      <span className="row">
        {canPublish ? (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={() => publish.mutate()}
            disabled={publish.isPending}
          >
            {publish.isPending
              ? "Collecting…"
              : `Publish ${changed === 1 ? "it" : `these ${changed.toLocaleString()}`}`}
          </button>
        ) : null}
        <Link
          to="/products"
          search={{}}
          className={`btn btn-sm${canPublish ? "" : " btn-primary"}`}
        >
          Open the catalog
        </Link>
        <Link to="/imports" search={{}} className="btn btn-sm">
          Import more
        </Link>
      </span>
    </div>
  );
}
