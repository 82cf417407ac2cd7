import { randomUUID } from "node:crypto";
import type {
  DestinationTarget,
  EndListingInput,
  OfferUpdateInput,
  PublishableProduct,
  PublishInput,
} from "../src/index.js";

export function product(overrides: Partial<PublishableProduct> = {}): PublishableProduct {
  return {
    id: `prod_${randomUUID()}`,
    sku: `SKU-${randomUUID().slice(0, 8)}`,
    title: "Stoneware Mug",
    description: "<p>Holds 350 ml.</p>",
    brand: "Acme",
    gtin: "4006381333931",
    mpn: "MUG-1",
    priceAmount: "19.9900",
    priceCurrency: "EUR",
    images: ["https://img.example/mug.jpg"],
    availability: "in_stock",
    variants: [
      { sku: "MUG-1-BLUE", title: "Blue", priceAmount: "21.5000", options: { color: "blue" } },
    ],
    attributes: { material: "stoneware" },
    ...overrides,
  };
}

/** A destination on its own store of the stand-in, so tests never see each other's listings. */
export function destination(
  baseUrl: string,
  storeId = `store-${randomUUID()}`,
): DestinationTarget & { storeId: string } {
  return {
    id: `dest_${storeId}`,
    channel: "standin",
    baseUrl,
    credentials: { token: `${storeId}:s3cret` },
    settings: {},
    storeId,
  };
}

export function publishInput(
  dest: DestinationTarget,
  prod: PublishableProduct,
  overrides: Partial<PublishInput> = {},
): PublishInput {
  return {
    product: prod,
    destination: dest,
    remoteId: null,
    signal: new AbortController().signal,
    idempotencyKey: `${prod.id}:${dest.id}`,
    saveRemoteId: async () => {},
    ...overrides,
  };
}

/** What updateOffer and endListing take: the live listing's remote id and the product as it is. */
export function listingInput(
  dest: DestinationTarget,
  prod: PublishableProduct,
  remoteId: string,
): OfferUpdateInput & EndListingInput {
  return { product: prod, destination: dest, remoteId, signal: new AbortController().signal };
}
