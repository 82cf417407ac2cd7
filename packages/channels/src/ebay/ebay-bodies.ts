// The catalog product as eBay's Sell Inventory API takes it: inventory items (one per SKU), an
// inventory item group for products with variations, and offers that put them on a marketplace.
import { clipDescriptionHtml } from "@catalog/db/description";
import type { PublishableProduct, PublishableVariant } from "../adapter.js";
import { toChannelAmount } from "../destination-fields.js";
import { unitsOf } from "../quantity.js";
import type { EbaySettings } from "./ebay-settings.js";

// eBay's limits: titles 80 characters, 24 images, 4,000 characters of product description (the
// markup counts). Descriptions are HTML, which eBay takes (basic tags, no active content).
const MAX_TITLE = 80;
const MAX_IMAGES = 24;
const MAX_PRODUCT_DESCRIPTION = 4_000;

/** At most 80 characters, cut at a word boundary where there is one. */
export function ebayTitle(title: string): string {
  const chars = [...title.trim()];
  if (chars.length <= MAX_TITLE) return chars.join("");
  const cut = chars.slice(0, MAX_TITLE).join("");
  const space = cut.lastIndexOf(" ");
  return (space > MAX_TITLE / 2 ? cut.slice(0, space) : cut).trim();
}

function gtinFields(gtin: string | null | undefined): Record<string, string[]> {
  if (!gtin) return {};
  return gtin.length === 12 ? { upc: [gtin] } : { ean: [gtin] };
}

export function inventoryItem(
  product: PublishableProduct,
  settings: EbaySettings,
  variant?: PublishableVariant,
): Record<string, unknown> {
  const aspects: Record<string, string[]> = {};
  if (product.brand) aspects.Brand = [product.brand];
  for (const [name, value] of Object.entries(variant?.options ?? {})) aspects[name] = [value];
  return {
    product: {
      title: ebayTitle(variant?.title ? `${product.title} ${variant.title}` : product.title),
      ...(product.description
        ? { description: clipDescriptionHtml(product.description, MAX_PRODUCT_DESCRIPTION) }
        : {}),
      ...(Object.keys(aspects).length ? { aspects } : {}),
      ...(product.brand ? { brand: product.brand } : {}),
      ...(product.mpn ? { mpn: product.mpn } : {}),
      ...gtinFields(variant ? variant.gtin : product.gtin),
      imageUrls: product.images.slice(0, MAX_IMAGES),
    },
    condition: settings.condition,
    availability: { shipToLocationAvailability: { quantity: unitsOf(product, variant) } },
  };
}

export function itemGroup(product: PublishableProduct, key: string): Record<string, unknown> {
  const names = [...new Set(product.variants.flatMap((v) => Object.keys(v.options ?? {})))];
  return {
    inventoryItemGroupKey: key,
    title: ebayTitle(product.title),
    ...(product.description
      ? { description: clipDescriptionHtml(product.description, MAX_PRODUCT_DESCRIPTION) }
      : {}),
    ...(product.brand ? { aspects: { Brand: [product.brand] } } : {}),
    imageUrls: product.images.slice(0, MAX_IMAGES),
    variantSKUs: product.variants.map((v) => v.sku!),
    variesBy: {
      specifications: names.map((name) => ({
        name,
        values: [
          ...new Set(
            product.variants.map((v) => v.options?.[name]).filter((o): o is string => !!o),
          ),
        ],
      })),
    },
  };
}

/** An offer's body; `withKeys` adds what only a new offer carries (sku, marketplace, format). */
export function offer(
  product: PublishableProduct,
  settings: EbaySettings,
  sku: string,
  amount: string,
  quantity: number,
  withKeys: boolean,
): Record<string, unknown> {
  return {
    ...(withKeys ? { sku, marketplaceId: settings.marketplaceId, format: "FIXED_PRICE" } : {}),
    availableQuantity: quantity,
    categoryId: settings.categoryId,
    ...(product.description ? { listingDescription: product.description } : {}),
    listingPolicies: {
      fulfillmentPolicyId: settings.fulfillmentPolicyId,
      paymentPolicyId: settings.paymentPolicyId,
      returnPolicyId: settings.returnPolicyId,
    },
    pricingSummary: { price: ebayPrice(product, settings, amount) },
    merchantLocationKey: settings.merchantLocationKey,
  };
}

/** An amount as eBay takes it, in the destination's currency (else the product's or the site's). */
export function ebayPrice(
  product: PublishableProduct,
  settings: EbaySettings,
  amount: string,
): { value: string; currency: string } {
  return {
    value: toChannelAmount(amount),
    currency: (
      settings.currency ??
      product.priceCurrency ??
      settings.marketplaceCurrency
    ).toUpperCase(),
  };
}

/** One SKU's entry of a bulk price and quantity update: its stock and its offer's price. */
export function priceQuantity(
  product: PublishableProduct,
  settings: EbaySettings,
  sku: string,
  offerId: string,
  variant?: PublishableVariant,
): Record<string, unknown> {
  const quantity = unitsOf(product, variant);
  return {
    sku,
    shipToLocationAvailability: { quantity },
    offers: [
      {
        offerId,
        availableQuantity: quantity,
        price: ebayPrice(product, settings, variant?.priceAmount?.trim() || product.priceAmount!),
      },
    ],
  };
}
