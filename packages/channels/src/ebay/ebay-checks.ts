// What eBay would refuse in a product, found before any call: the adapter gives up on the first,
// a dry run (the channel's preflight) lists them all.
import type { PublishableProduct } from "../adapter.js";
import { missingField } from "../destination-fields.js";
import type { GiveUpChannelError } from "../errors.js";
import { positivePriceProblems } from "../preflight.js";

const CHANNEL = "ebay";

/** A product with variant options is listed as an inventory item group, one SKU per variant. */
export const hasVariations = (product: PublishableProduct) =>
  product.variants.some((v) => Object.keys(v.options ?? {}).length > 0);

export function ebayProductProblems(product: PublishableProduct): GiveUpChannelError[] {
  const problems: GiveUpChannelError[] = [];
  if (!product.title?.trim()) problems.push(missingField(CHANNEL, product, "title"));
  if (!product.priceAmount?.trim()) problems.push(missingField(CHANNEL, product, "priceAmount"));
  else problems.push(...positivePriceProblems(CHANNEL, product, "eBay lists nothing for free"));
  if (!product.sku)
    problems.push(
      missingField(CHANNEL, product, "sku", "sku is required: eBay keys every listing by SKU"),
    );
  if (hasVariations(product) && product.variants.some((v) => !v.sku)) {
    problems.push(
      missingField(CHANNEL, product, "variants.sku", "every variant needs its own SKU on eBay"),
    );
  }
  return problems;
}
