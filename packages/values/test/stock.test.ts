// The stock rule every write path applies: availability follows a known quantity.
import { availabilityFor, withStock } from "../src/index.js";

test("a quantity of 0 is out of stock, whatever the word said", () => {
  for (const word of [null, "InStock", "PreOrder", "BackOrder", "OutOfStock"])
    expect(availabilityFor(0, word)).toBe("OutOfStock");
});

test("a quantity above 0 is in stock in place of an out-of-stock word or none; pre-orders and back-orders stay", () => {
  expect(availabilityFor(3, null)).toBe("InStock");
  expect(availabilityFor(3, "OutOfStock")).toBe("InStock");
  expect(availabilityFor(3, "SoldOut")).toBe("InStock");
  expect(availabilityFor(3, "PreOrder")).toBe("PreOrder");
  expect(availabilityFor(3, "BackOrder")).toBe("BackOrder");
});

test("an unknown quantity leaves the availability alone", () => {
  expect(availabilityFor(null, "OutOfStock")).toBe("OutOfStock");
  expect(availabilityFor(undefined, null)).toBeNull();
});

test("withStock applies the rule to the product and each variant, and states every variant's quantity", () => {
  const variant = {
    sku: "A",
    title: null,
    price: null,
    options: {},
    gtin: null,
    availability: "InStock",
    image: null,
  };
  const out = withStock({
    title: "Mug",
    quantity: 0,
    availability: "InStock",
    variants: [
      { ...variant, quantity: 0 },
      { ...variant, sku: "B" },
    ],
  });
  expect(out).toEqual({
    title: "Mug",
    quantity: 0,
    availability: "OutOfStock",
    variants: [
      { ...variant, quantity: 0, availability: "OutOfStock" },
      { ...variant, sku: "B", quantity: null },
    ],
  });
  const untouched: { title: string; quantity?: number } = { title: "Mug" };
  expect(withStock(untouched)).toEqual({ title: "Mug" });
});
