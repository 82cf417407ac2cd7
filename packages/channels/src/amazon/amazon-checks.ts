// What Amazon would refuse in a product before any call (the adapter gives up on the first, a dry
// run lists them all), and the parts of a Listings Items request that a publish and a validation
// preview share.
import type { PublishableProduct } from "../adapter.js";
import { missingField } from "../destination-fields.js";
import type { GiveUpChannelError } from "../errors.js";
import type { AmazonListingItem } from "./amazon-attributes.js";
import type { AmazonSettings } from "./amazon-settings.js";

const CHANNEL = "amazon";

export function amazonProductProblems(product: PublishableProduct): GiveUpChannelError[] {
  const problems: GiveUpChannelError[] = [];
  if (!product.title?.trim()) problems.push(missingField(CHANNEL, product, "title"));
  if (!product.priceAmount?.trim()) problems.push(missingField(CHANNEL, product, "priceAmount"));
  if (!product.sku)
    problems.push(
      missingField(CHANNEL, product, "sku", "sku is required: Amazon keys every listing by SKU"),
    );
  if (product.variants.some((v) => Object.keys(v.options ?? {}).length > 0 && !v.sku)) {
    problems.push(
      missingField(CHANNEL, product, "variants.sku", "every variant needs its own SKU on Amazon"),
    );
  }
  return problems;
}

/** A listings item's address (GET, PUT, PATCH), with the marketplace and `query`. */
export const listingsItemUrl = (
  api: string,
  settings: AmazonSettings,
  sku: string,
  query: Record<string, string>,
) =>
  `${api}/listings/2021-08-01/items/${encodeURIComponent(settings.sellerId)}/${encodeURIComponent(sku)}?${new URLSearchParams({ marketplaceIds: settings.marketplaceId, ...query }).toString()}`;

/** putListingsItem's body: the whole item (a parent carries no offer). */
export const putBody = (item: AmazonListingItem, settings: AmazonSettings) => ({
  productType: settings.productType,
  requirements: item.role === "parent" ? "LISTING_PRODUCT_ONLY" : "LISTING",
  attributes: item.attributes,
});
