// How values read in the popup: money, availability, a page's address, field names.
import type { Money } from "../shared/api";
import { descriptionText } from "./description";

export function moneyText(money: Money | null | undefined): string {
  if (!money) return "—";
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: money.currency }).format(
      Number(money.amount),
    );
  } catch {
    return `${money.amount} ${money.currency}`;
  }
}

/** schema.org ItemAvailability names the service uses, as a shopper reads them. */
export const AVAILABILITY: Record<string, string> = {
  InStock: "In stock",
  OutOfStock: "Out of stock",
  PreOrder: "Pre-order",
  BackOrder: "Back-order",
  LimitedAvailability: "Limited availability",
  SoldOut: "Sold out",
  Discontinued: "Discontinued",
  OnlineOnly: "Online only",
  InStoreOnly: "In store only",
};

export function availabilityText(value: unknown): string {
  return typeof value === "string" ? (AVAILABILITY[value] ?? value) : "—";
}

const FIELD_NAMES: Record<string, string> = {
  title: "Title",
  sku: "SKU",
  price: "Price",
  description: "Description",
  images: "Images",
  brand: "Brand",
  gtin: "GTIN",
  mpn: "MPN",
  availability: "Availability",
  quantity: "Stock",
  variants: "Variants",
  attributes: "Attributes",
  sourceUrl: "Page",
};

export const fieldName = (field: string) => FIELD_NAMES[field] ?? field;

/** A field's value in one short line, for "from → to". */
export function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (field === "price") return moneyText(value as Money);
  if (field === "availability") return availabilityText(value);
  if (Array.isArray(value))
    return `${value.length} ${field === "images" ? "image" : "item"}${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object") return `${Object.keys(value).length} values`;
  const plain =
    typeof value === "string"
      ? value
      : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : (JSON.stringify(value) ?? "");
  const text = field === "description" ? descriptionText(plain) : plain;
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

export function shortAddress(url: string): string {
  try {
    const u = new URL(url);
    const text = `${u.host}${u.pathname === "/" ? "" : u.pathname}`;
    return text.length > 60 ? `${text.slice(0, 57)}…` : text;
  } catch {
    return url;
  }
}
