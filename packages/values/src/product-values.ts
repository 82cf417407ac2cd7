// The catalog's value shapes that more than the database speaks: the extractors build them, the
// gateway validates and stores them, the database keeps them in jsonb and decimal columns.

/** An amount with its currency; the amount is a decimal string ("19.90"), never a float. */
export interface Money {
  amount: string;
  currency: string;
}

export interface ProductVariant {
  sku: string | null;
  title: string | null;
  price: Money | null;
  options: Record<string, string>;
  gtin: string | null;
  availability: string | null;
  image: string | null;
  /**
   * Units of this variant in stock (an integer from 0); null or absent when unknown. Stored
   * variants always state it (`withStock`).
   */
  quantity?: number | null;
}
