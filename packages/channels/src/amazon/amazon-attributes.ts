// The catalog product as Listings Items attributes: every value is a list of objects carrying its
// marketplace (and language, for text), as Amazon's product type schemas declare them. A product
// with variations is a parent SKU (no offer) and one child SKU per variation.
import { descriptionText } from "@catalog/db/description";
import type { PublishableProduct, PublishableVariant } from "../adapter.js";
import { toChannelAmount } from "../destination-fields.js";
import { unitsOf } from "../quantity.js";
import type { AmazonSettings } from "./amazon-settings.js";

export type Attributes = Record<string, Record<string, unknown>[]>;

// Amazon's limits: item names of 200 characters, descriptions of 2,000, a main image and eight
// others.
const MAX_NAME = 200;
const MAX_DESCRIPTION = 2_000;
const OTHER_IMAGES = 8;
/** The offer's attributes: a parent SKU has none, and a partial schema check may leave them out. */
export const OFFER_ATTRIBUTES = ["purchasable_offer", "fulfillment_availability"];

const clip = (text: string, max: number) => [...text.trim()].slice(0, max).join("");

/**
 * "Color" -> "color", "Size name" -> "size_name": Amazon's attribute names for variation options.
 */
export const optionAttribute = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

const inStock = (product: PublishableProduct) =>
  !/OutOfStock|SoldOut|Discontinued/i.test(product.availability ?? "");

export interface AmazonListingItem {
  sku: string;
  role: "single" | "parent" | "child";
  attributes: Attributes;
}

function common(
  product: PublishableProduct,
  s: AmazonSettings,
  title: string,
  gtin: string | null | undefined,
): Attributes {
  const m = { marketplace_id: s.marketplaceId };
  const text = (value: string) => [{ value, language_tag: s.languageTag, ...m }];
  const attributes: Attributes = {
    item_name: text(clip(title, MAX_NAME)),
    condition_type: [{ value: s.condition, ...m }],
  };
  if (product.brand) attributes.brand = text(product.brand);
  // Plain text: the product types declare product_description as a string with no markup, and which
  // tags Amazon renders (if any) depends on the marketplace and category; text reads right
  // everywhere.
  const description = product.description ? descriptionText(product.description) : "";
  if (description) attributes.product_description = text(clip(description, MAX_DESCRIPTION));
  if (product.mpn) attributes.part_number = [{ value: product.mpn, ...m }];
  if (gtin)
    attributes.externally_assigned_product_identifier = [
      { type: gtin.length === 12 ? "upc" : "ean", value: gtin, ...m },
    ];
  else attributes.supplier_declared_has_product_identifier_exemption = [{ value: true, ...m }];
  // The product's own attributes ("material": "stoneware") under Amazon's names, where we build
  // nothing of that name; the product type's definition then keeps only those it knows.
  for (const [name, value] of Object.entries(product.attributes ?? {})) {
    const key = optionAttribute(name);
    if (
      key &&
      !attributes[key] &&
      (typeof value === "string" || typeof value === "number") &&
      String(value).trim()
    )
      attributes[key] = text(String(value).trim());
  }
  const [main, ...others] = product.images;
  if (main) attributes.main_product_image_locator = [{ media_location: main, ...m }];
  others
    .slice(0, OTHER_IMAGES)
    .forEach(
      (url, i) =>
        (attributes[`other_product_image_locator_${i + 1}`] = [{ media_location: url, ...m }]),
    );
  return attributes;
}

/**
 * Units offered: the catalog's quantity (the variant's, else the product's); unknown, the
 * destination's default quantity when in stock, else 0.
 */
function unitsOffered(
  product: PublishableProduct,
  s: AmazonSettings,
  variant?: PublishableVariant,
) {
  const known = variant?.quantity ?? product.quantity;
  if (known === null || known === undefined) return inStock(product) ? s.quantity : 0;
  return unitsOf(product, variant);
}

function offer(
  product: PublishableProduct,
  s: AmazonSettings,
  amount: string,
  variant?: PublishableVariant,
): Attributes {
  return {
    // Amazon's schema types the price as a number; the decimal string is read once, here.
    purchasable_offer: [
      {
        currency: s.currency,
        marketplace_id: s.marketplaceId,
        our_price: [{ schedule: [{ value_with_tax: Number(toChannelAmount(amount)) }] }],
      },
    ],
    fulfillment_availability: [
      {
        fulfillment_channel_code: s.fulfillmentChannelCode,
        quantity: unitsOffered(product, s, variant),
      },
    ],
  };
}

export const hasVariations = (product: PublishableProduct) =>
  product.variants.some((v) => Object.keys(v.options ?? {}).length > 0);

/** Every SKU the product is listed under, the parent first. */
export function listingItems(product: PublishableProduct, s: AmazonSettings): AmazonListingItem[] {
  const sku = product.sku!;
  if (!hasVariations(product)) {
    return [
      {
        sku,
        role: "single",
        attributes: {
          ...common(product, s, product.title, product.gtin),
          ...offer(product, s, product.priceAmount!),
        },
      },
    ];
  }
  const m = { marketplace_id: s.marketplaceId };
  const names = [...new Set(product.variants.flatMap((v) => Object.keys(v.options ?? {})))];
  const theme = names.map((n) => optionAttribute(n).toUpperCase()).join("/");
  const parent: AmazonListingItem = {
    sku,
    role: "parent",
    attributes: {
      ...common(product, s, product.title, null),
      parentage_level: [{ value: "parent", ...m }],
      variation_theme: [{ name: theme }],
    },
  };
  const child = (variant: PublishableVariant): AmazonListingItem => {
    const options: Attributes = Object.fromEntries(
      Object.entries(variant.options ?? {}).map(([name, value]) => [
        optionAttribute(name),
        [{ value, language_tag: s.languageTag, ...m }],
      ]),
    );
    return {
      sku: variant.sku!,
      role: "child",
      attributes: {
        ...common(
          product,
          s,
          variant.title ? `${product.title} ${variant.title}` : product.title,
          variant.gtin,
        ),
        ...options,
        parentage_level: [{ value: "child", ...m }],
        child_parent_sku_relationship: [
          { child_relationship_type: "variation", parent_sku: sku, ...m },
        ],
        variation_theme: [{ name: theme }],
        ...offer(product, s, variant.priceAmount?.trim() || product.priceAmount!, variant),
      },
    };
  };
  return [parent, ...product.variants.map(child)];
}
