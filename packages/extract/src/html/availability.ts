const TERMS = [
  "InStock",
  "OutOfStock",
  "PreOrder",
  "PreSale",
  "BackOrder",
  "Discontinued",
  "InStoreOnly",
  "LimitedAvailability",
  "OnlineOnly",
  "SoldOut",
  "MadeToOrder",
  "Reserved",
];
const BY_KEY = new Map(TERMS.map((t) => [t.toLowerCase(), t]));
const SYNONYMS: Record<string, string> = {
  available: "InStock",
  instockonly: "InStock",
  true: "InStock",
  "1": "InStock",
  yes: "InStock",
  outofstockonline: "OutOfStock",
  unavailable: "OutOfStock",
  notavailable: "OutOfStock",
  false: "OutOfStock",
  "0": "OutOfStock",
  no: "OutOfStock",
  oos: "OutOfStock",
  availablefororder: "InStock",
  backordered: "BackOrder",
  preorderable: "PreOrder",
  // A classified ad's status: "NOT SOLD" is still on offer, "Sold" no longer.
  notsold: "InStock",
  unsold: "InStock",
  sold: "OutOfStock",
};

/**
 * A schema.org ItemAvailability name from what markup says: "http://schema.org/InStock",
 * "instock", "in stock", "in_stock", "out of stock" all count; anything else is no answer.
 */
export function normaliseAvailability(value: unknown): string | null {
  if (typeof value === "boolean") return value ? "InStock" : "OutOfStock";
  if (typeof value !== "string") return null;
  const last = value.trim().split(/[/#:]/).pop() ?? "";
  const key = last.toLowerCase().replace(/[^a-z0-9]/g, "");
  return BY_KEY.get(key) ?? SYNONYMS[key] ?? null;
}
