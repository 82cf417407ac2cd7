// The catalog product as channel adapters take it: one mapping, shared with the gateway's dry run.
import { toPublishable, type PublishableProduct } from "@catalog/channels";
import { toProductView } from "@catalog/db";

export { toPublishable };

/**
 * The product row as the channel receives it. A product deleted while it was live has its SKU
 * in `deletedSku` (the catalog's is freed for a new product): its listings are still that SKU.
 */
export function publishableOf(product: Parameters<typeof toProductView>[0]): PublishableProduct {
  const publishable = toPublishable(toProductView(product));
  return { ...publishable, sku: publishable.sku ?? product.deletedSku };
}
