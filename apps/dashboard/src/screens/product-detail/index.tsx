import { useEffect, useState } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ProductDetail } from "@catalog/gateway/api-types";
import { isStatus, qk } from "../../api/client";
import * as endpoints from "../../api/endpoints";
import { destinationLabel, useChannelName, useDestinations } from "../../api/queries";
import { useSession } from "../../api/session";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { PageHeader } from "../../ui/PageHeader";
import { focusScreenHeading } from "../../ui/focus";
import { Empty, ErrorMessage, Loading } from "../../ui/states";
import { useToast } from "../../ui/toast-context";
import { formatRelative } from "../../ui/format";
import { History } from "./History";
import { Listings } from "./Listings";
import { Overview } from "./Overview";
import { ProductEditForm } from "./ProductEditForm";
import { readDraft } from "./draft";
import { isLive } from "./listing-state";
import { SourceWatch } from "./SourceWatch";

const route = getRouteApi("/app/products/$id");

export function ProductDetailScreen() {
  const { id } = route.useParams();
  const { edit } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const userId = useSession().user.id;
  // Changes kept when a save found the session ended: the form opens with them, once.
  const [draft, setDraft] = useState(() => readDraft(userId, id));
  const [editing, setEditing] = useState(edit === 1 || draft !== null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const destinations = useDestinations();
  const channelName = useChannelName();

  const product = useQuery({
    queryKey: qk.products.detail(id),
    queryFn: () => endpoints.products.get(id),
  });
  // Through the confirmation dialog, which shows a refusal.
  const remove = useMutation({
    mutationFn: (p: ProductDetail) => endpoints.products.remove(p.id),
    onSuccess: async (result, p) => {
      queryClient.removeQueries({ queryKey: qk.products.detail(p.id) });
      await queryClient.invalidateQueries({ queryKey: qk.products.all });
      const ending = result?.endingListings.length ?? 0;
      toast.notify(
        ending > 0
          ? `Deleted “${p.title}”; ending its ${ending === 1 ? "listing" : `${ending} listings`} on the stores`
          : `Deleted “${p.title}”`,
        "ok",
      );
      await navigate({ to: "/products", search: {} });
    },
  });

  useEffect(() => {
    document.title = `${product.data?.title ?? "Product"} · Catalog`;
  }, [product.data?.title]);

  if (product.isLoading)
    return (
      <div className="page">
        <Loading label="Loading the product" />
      </div>
    );
  if (product.error || !product.data) {
    return (
      <div className="page">
        <PageHeader
          title="Product"
          breadcrumb={
            <Link to="/products" search={{}}>
              Catalog
            </Link>
          }
        />
        {isStatus(product.error, 404) ? (
          <Empty
            title="This product is not in your catalog"
            action={
              <Link to="/products" search={{}} className="btn">
                Back to the catalog
              </Link>
            }
          >
            It may have been deleted, or the link is wrong.
          </Empty>
        ) : (
          <ErrorMessage
            error={product.error}
            title="Could not load the product"
            onRetry={() => void product.refetch()}
          />
        )}
      </div>
    );
  }
  const p = product.data;
  const liveStores = p.listings
    .filter(isLive)
    .map((l) =>
      destinationLabel(destinations.data?.items, l.destinationAccountId, l.channel, channelName),
    );

  return (
    <div className="page">
      <PageHeader
        breadcrumb={
          <Link to="/products" search={{}}>
            Catalog
          </Link>
        }
        title={p.title}
        description={
          <>
            {p.sku ? (
              <>
                SKU <span className="mono">{p.sku}</span> ·{" "}
              </>
            ) : null}
            version {p.version} · updated {formatRelative(p.updatedAt)}
          </>
        }
        actions={
          editing ? null : (
            <>
              <button type="button" className="btn" onClick={() => setEditing(true)}>
                Edit
              </button>
              <Link to="/publish" search={{ ids: p.id }} className="btn btn-primary">
                Publish
              </Link>
              <button
                type="button"
                className="btn btn-ghost"
                style={{ color: "var(--bad)" }}
                onClick={() => setConfirmDelete(true)}
              >
                Delete
              </button>
            </>
          )
        }
      />

      {editing ? (
        <section className="section card" aria-label="Edit product">
          <div className="card-header">
            <h2>Edit product</h2>
          </div>
          <div className="card-body">
            <ProductEditForm
              product={p}
              draft={draft?.base.id === p.id ? draft : null}
              onSaved={() => {
                setDraft(null);
                setEditing(false);
                toast.notify("Product saved", "ok");
                // The form (and the Save button with focus) is gone: back to the product.
                focusScreenHeading();
              }}
              onCancel={() => {
                setDraft(null);
                setEditing(false);
              }}
            />
          </div>
        </section>
      ) : (
        <Overview product={p} />
      )}

      <SourceWatch product={p} />
      <Listings product={p} />
      <History productId={p.id} />

      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${p.title}”?`}
        confirmLabel="Delete product"
        danger
        onConfirm={() => remove.mutateAsync(p)}
        onClose={() => setConfirmDelete(false)}
      >
        <p>The product is removed from your catalog. Its history is kept.</p>
        {liveStores.length > 0 ? (
          <>
            <p>Its listings on these stores will be ended:</p>
            <ul className="confirm-list">
              {liveStores.map((name) => (
                <li key={name}>{name}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>It is not live on any store.</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
