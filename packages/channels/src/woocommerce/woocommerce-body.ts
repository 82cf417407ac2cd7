// A catalog product as WooCommerce's REST wc/v3 takes it: a simple product, or a variable one
// with its attributes (the variations are written separately, matched by SKU).
import type { PublishableProduct, PublishableVariant } from "../adapter.js";
import { missingField, toChannelAmount } from "../destination-fields.js";
import type { GiveUpChannelError } from "../errors.js";
import { throwFirst } from "../preflight.js";
import { unitsOf } from "../quantity.js";

const CHANNEL = "woocommerce";

const STOCK: Record<string, string> = {
  OutOfStock: "outofstock",
  SoldOut: "outofstock",
  PreOrder: "onbackorder",
  BackOrder: "onbackorder",
};

export const stockStatus = (availability: string | null | undefined) =>
  STOCK[availability ?? ""] ?? "instock";

/**
 * The stock fields of a product or variation: a known quantity is managed by WooCommerce
 * (`manage_stock`, `stock_quantity`, and the status it implies); an unknown one only says the
 * status the availability word implies, with stock unmanaged, as before quantities existed.
 */
export function stockFields(
  product: PublishableProduct,
  variant?: PublishableVariant,
): Record<string, unknown> {
  const known = variant?.quantity ?? product.quantity;
  if (known === null || known === undefined)
    return { stock_status: stockStatus(product.availability) };
  const quantity = unitsOf(product, variant);
  const onBackorder = stockStatus(product.availability) === "onbackorder";
  return {
    manage_stock: true,
    stock_quantity: quantity,
    stock_status: quantity > 0 ? "instock" : onBackorder ? "onbackorder" : "outofstock",
  };
}

/** The cheap route's body of a product or variation: its price and stock, nothing else. */
export function offerBody(
  product: PublishableProduct,
  variant?: PublishableVariant,
): Record<string, unknown> {
  if (!product.priceAmount?.trim()) throw missingField(CHANNEL, product, "priceAmount");
  return {
    regular_price: toChannelAmount(variant?.priceAmount?.trim() || product.priceAmount),
    ...stockFields(product, variant),
  };
}

export const isVariable = (product: PublishableProduct) =>
  product.variants.some((v) => Object.keys(v.options ?? {}).length > 0);

/** What WooCommerce is not sent: the product body's checks, and a dry run's. */
export function woocommerceProductProblems(product: PublishableProduct): GiveUpChannelError[] {
  const problems: GiveUpChannelError[] = [];
  if (!product.title?.trim()) problems.push(missingField(CHANNEL, product, "title"));
  if (!product.priceAmount?.trim()) problems.push(missingField(CHANNEL, product, "priceAmount"));
  return problems;
}

export function productBody(product: PublishableProduct): Record<string, unknown> {
  throwFirst(woocommerceProductProblems(product));
  const body: Record<string, unknown> = {
    name: product.title.trim(),
    description: product.description ?? "",
    regular_price: toChannelAmount(product.priceAmount!),
    // A variable product's stock is its variations'.
    ...(isVariable(product)
      ? { stock_status: stockStatus(product.availability) }
      : stockFields(product)),
    images: product.images.map((src) => ({ src })),
    ...(product.sku ? { sku: product.sku } : {}),
  };
  if (!isVariable(product)) return { ...body, type: "simple" };
  const names = [...new Set(product.variants.flatMap((v) => Object.keys(v.options ?? {})))];
  return {
    ...body,
    type: "variable",
    attributes: names.map((name, position) => ({
      name,
      position,
      visible: true,
      variation: true,
      options: [
        ...new Set(product.variants.map((v) => v.options?.[name]).filter((o): o is string => !!o)),
      ],
    })),
  };
}

export function variationBody(
  product: PublishableProduct,
  variant: PublishableVariant,
): Record<string, unknown> {
  return {
    regular_price: toChannelAmount(variant.priceAmount?.trim() || product.priceAmount!),
    attributes: Object.entries(variant.options ?? {}).map(([name, option]) => ({ name, option })),
    ...stockFields(product, variant),
    ...(variant.sku ? { sku: variant.sku } : {}),
  };
}
