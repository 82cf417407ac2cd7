// The units a channel is sent for a product or one of its variants: the variant's own quantity,
// else the product's, else (unknown) what the availability word implies, as every channel was
// sent before quantities existed: 0 when out of stock, sold out or discontinued, else 1.
import type { PublishableProduct, PublishableVariant } from "./adapter.js";

const NOT_IN_STOCK = /OutOfStock|SoldOut|Discontinued/i;

export function unitsOf(product: PublishableProduct, variant?: PublishableVariant): number {
  const known = variant?.quantity ?? product.quantity;
  if (known !== null && known !== undefined && Number.isFinite(known))
    return Math.max(0, Math.trunc(known));
  return NOT_IN_STOCK.test(product.availability ?? "") ? 0 : 1;
}
