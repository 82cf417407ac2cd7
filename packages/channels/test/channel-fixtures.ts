// Products that exercise what channels are strict about: variants with options, unicode titles,
// long descriptions, many images.
import { storedDescription } from "@catalog/db/description";
import type { PublishableProduct } from "../src/index.js";
import { product } from "./fixtures.js";

export const withVariants = (overrides: Partial<PublishableProduct> = {}): PublishableProduct => {
  const base = product(overrides);
  return {
    ...base,
    variants: [
      {
        sku: `${base.sku}-S-BL`,
        title: "Small blue",
        priceAmount: "19.9900",
        options: { Size: "S", Color: "Blue" },
        gtin: null,
      },
      {
        sku: `${base.sku}-L-RD`,
        title: "Large red",
        priceAmount: "24.5000",
        options: { Size: "L", Color: "Red" },
        gtin: "4006381333931",
      },
    ],
    ...overrides,
  };
};

/** Unicode, a 20,000-character description (in the catalog's stored form) and 30 images. */
export const demanding = (overrides: Partial<PublishableProduct> = {}): PublishableProduct =>
  product({
    title: "Tasse à café — 珈琲カップ ☕ «édition» ".repeat(12).trim(),
    description: storedDescription('Grès émaillé, 350 ml. 5 < 6 & "quotes"\n\n'.repeat(400)),
    images: Array.from({ length: 30 }, (_, i) => `https://img.example/p/${i}.jpg`),
    variants: [],
    ...overrides,
  });

/** Settles a promise into its error (or undefined), for asserting on error classes. */
export const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
