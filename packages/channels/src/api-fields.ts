// The adapters name a product's price `priceAmount` (the stored column); the API calls it `price`.
// A leaf, so that the give-ups (destination-fields.ts) and the dry run's problems (preflight.ts)
// name fields alike without importing each other.
const API_FIELDS: Record<string, string> = {
  priceAmount: "price",
  "variants.priceAmount": "variants.price",
};

/** A product field as the API names it. */
export const apiFieldName = (field: string) => API_FIELDS[field] ?? field;
