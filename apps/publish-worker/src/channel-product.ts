// The catalog product as channel adapters take it: one mapping, shared with the gateway's dry run.
import { toPublishable, type PublishableProduct } from "@catalog/channels";
import { toProductView } from "@catalog/db";

export { toPublishable };

type ProductRow = Parameters<typeof toProductView>[0];

/**
 * The product row as the channel receives it, its stock included: the row's quantities fill in
 * where the catalog view does not carry them.
 */
export function publishableOf(product: ProductRow): PublishableProduct {
  const publishable = toPublishable(toProductView(product));
  const rowVariants = Array.isArray(product.variants)
    ? (product.variants as { quantity?: unknown }[])
    : [];
  const count = (value: unknown) => (typeof value === "number" ? value : null);
  return {
    ...publishable,
    quantity: publishable.quantity !== undefined ? publishable.quantity : product.quantity,
    variants: publishable.variants.map((v, i) =>
      v.quantity !== undefined ? v : { ...v, quantity: count(rowVariants[i]?.quantity) },
    ),
  };
}
