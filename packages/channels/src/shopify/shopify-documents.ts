// The GraphQL documents the Shopify adapter sends (checked against Shopify's published schema in
// the tests) and the productSet input built from a catalog product.
import { createHash } from "node:crypto";
import type { PublishableProduct, PublishableVariant } from "../adapter.js";
import { missingField, toChannelAmount } from "../destination-fields.js";
import { GiveUpChannelError } from "../errors.js";
import { throwFirst } from "../preflight.js";
import { unitsOf } from "../quantity.js";

export const API_VERSION = "2026-10";

export const PRODUCT_SET = `mutation ProductSet($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
  productSet(synchronous: true, identifier: $identifier, input: $input) {
    product { id handle }
    userErrors { field message code }
  }
}`;

export const PRODUCT_BY_SKU = `query ProductBySku($query: String!) {
  productVariants(first: 1, query: $query) { nodes { id product { id } } }
}`;

/** The shop's primary location, where a publish sets the quantities it knows. */
export const PRIMARY_LOCATION = `query PrimaryLocation {
  location { id }
}`;

/** A live product's variants with their inventory items, and the primary location (cheap route). */
export const PRODUCT_OFFER = `query ProductOffer($id: ID!) {
  product(id: $id) { variants(first: 250) { nodes { id sku inventoryItem { id } } } }
  location { id }
}`;

/** Variants' prices only (the cheap route's first half). */
export const VARIANT_PRICES = `mutation VariantPrices($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants) {
    productVariants { id }
    userErrors { field message code }
  }
}`;

/**
 * Available quantities at the primary location (the cheap route's second half). The idempotency
 * key is required since 2026-04; each quantity opts out of compare-and-swap with
 * `changeFromQuantity: null`, since the catalog is the source of truth.
 */
export const SET_QUANTITIES = `mutation SetQuantities($input: InventorySetQuantitiesInput!, $key: String!) {
  inventorySetQuantities(input: $input) @idempotent(key: $key) {
    userErrors { field message code }
  }
}`;

export const PRODUCT_DELETE = `mutation ProductDelete($input: ProductDeleteInput!) {
  productDelete(input: $input, synchronous: true) {
    deletedProductId
    userErrors { field message }
  }
}`;

/** Checks an operator's custom-app token before it is kept. */
export const SHOP_CHECK = `query ShopCheck {
  shop { name myshopifyDomain }
}`;

// Shopify's own limits: beyond them productSet is refused, so we refuse first with a clear message.
const MAX_TITLE = 255;
const MAX_FILES = 250;
const MAX_VARIANTS = 2048;
const MAX_OPTIONS = 3;

const CHANNEL = "shopify";

/**
 * The handle a product is first created under, and so the identifier that makes creating it an
 * upsert: a publish repeated before its product id was saved (a crash, or Shopify's SKU search not
 * having caught up) finds the product made the first time instead of making another. The title's
 * ASCII words keep it readable; a digest of our product id makes it ours. (A title edited between
 * two such attempts gives another handle; the SKU lookup before it still finds the product.)
 */
export function shopifyHandle(product: PublishableProduct): string {
  const words = product.title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const readable = words.slice(0, 60).replace(/-+$/, "") || "product";
  return `${readable}-${createHash("sha256").update(product.id).digest("hex").slice(0, 10)}`;
}

/** Shopify's search syntax: the SKU quoted, with quotes and backslashes escaped. */
export const skuQuery = (sku: string) => `sku:"${sku.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

function tooMany(what: string, limit: number): GiveUpChannelError {
  return new GiveUpChannelError(`shopify takes at most ${limit} ${what} per product`, {
    channel: CHANNEL,
    kind: "validation",
    field: what === "options" ? "variants.options" : what,
  });
}

const optionNamesOf = (product: PublishableProduct) => [
  ...new Set(product.variants.flatMap((v) => Object.keys(v.options ?? {}))),
];

/** What productSet would refuse, found before any call: the input's checks, and a dry run's. */
export function shopifyProductProblems(product: PublishableProduct): GiveUpChannelError[] {
  const problems: GiveUpChannelError[] = [];
  if (!product.title?.trim()) problems.push(missingField(CHANNEL, product, "title"));
  if (!product.priceAmount?.trim() && !product.variants.some((v) => v.priceAmount?.trim()))
    problems.push(missingField(CHANNEL, product, "priceAmount"));
  if (optionNamesOf(product).length > MAX_OPTIONS) problems.push(tooMany("options", MAX_OPTIONS));
  if (product.variants.length > MAX_VARIANTS) problems.push(tooMany("variants", MAX_VARIANTS));
  return problems;
}

/** Whether the catalog knows any quantity of the product (then Shopify tracks its inventory). */
export const knowsQuantity = (product: PublishableProduct) =>
  product.quantity != null || product.variants.some((v) => v.quantity != null);

/**
 * productSet's input. With `locationId` (the catalog knows quantities), each variant's inventory is
 * tracked and its available quantity set there; without, as before quantities: untracked.
 */
export function productSetInput(
  product: PublishableProduct,
  locationId: string | null = null,
): Record<string, unknown> {
  throwFirst(shopifyProductProblems(product));
  const title = [...product.title.trim()].slice(0, MAX_TITLE).join("");
  const optionNames = optionNamesOf(product);
  const price = (amount: string | null | undefined) =>
    toChannelAmount((amount?.trim() || product.priceAmount)!);
  const inventory = (sku: string | null | undefined, variant?: PublishableVariant) =>
    locationId
      ? {
          inventoryItem: { ...(sku ? { sku } : {}), tracked: true },
          inventoryQuantities: [
            { locationId, name: "available", quantity: unitsOf(product, variant) },
          ],
        }
      : sku
        ? { inventoryItem: { sku } }
        : {};

  let productOptions: Record<string, unknown>[];
  let variants: Record<string, unknown>[];
  if (product.variants.length > 0 && optionNames.length > 0) {
    productOptions = optionNames.map((name) => ({
      name,
      values: [...new Set(product.variants.map((v) => v.options?.[name] ?? "Default"))].map(
        (value) => ({ name: value }),
      ),
    }));
    variants = product.variants.map((v) => ({
      optionValues: optionNames.map((name) => ({
        optionName: name,
        name: v.options?.[name] ?? "Default",
      })),
      price: price(v.priceAmount),
      ...inventory(v.sku, v),
      ...(v.gtin ? { barcode: v.gtin } : {}),
    }));
  } else {
    // A product without options still has one variant, under Shopify's "Title" option.
    productOptions = [{ name: "Title", values: [{ name: "Default Title" }] }];
    variants = [
      {
        optionValues: [{ optionName: "Title", name: "Default Title" }],
        price: price(product.priceAmount),
        ...inventory(product.sku),
        ...(product.gtin ? { barcode: product.gtin } : {}),
      },
    ];
  }
  return {
    title,
    // Shopify takes HTML: the stored description as it is.
    ...(product.description ? { descriptionHtml: product.description } : {}),
    ...(product.brand ? { vendor: product.brand } : {}),
    productOptions,
    variants,
    // productSet replaces list fields whole: every image is sent every time (extra ones are
    // dropped, not refused).
    files: product.images
      .slice(0, MAX_FILES)
      .map((url) => ({ originalSource: url, contentType: "IMAGE", alt: title })),
  };
}
