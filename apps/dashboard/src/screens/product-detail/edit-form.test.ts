import { describe, expect, it } from "vitest";
import type { ProductDetail } from "@catalog/gateway/api-types";
import { fieldOf, moveUp, toForm, toPatch, validate } from "./edit-form";

const product: ProductDetail = {
  id: "p1",
  title: "Blue mug",
  sku: "MUG-1",
  description: "<p>Hand-thrown</p>",
  price: { amount: "19.99", currency: "EUR" },
  images: ["https://img.example/1.jpg"],
  brand: null,
  gtin: null,
  mpn: null,
  availability: "InStock",
  quantity: null,
  variants: [],
  attributes: {},
  sourceUrl: null,
  source: "api",
  createdAt: "2026-11-01T00:00:00Z",
  updatedAt: "2026-11-01T00:00:00Z",
  version: 3,
  listings: [],
  watch: null,
};

describe("validate", () => {
  it("accepts the product as it is", () => {
    expect(validate(toForm(product))).toEqual({});
  });

  it("says what is wrong with each field, in words the user can act on", () => {
    const form = {
      ...toForm(product),
      title: " ",
      gtin: "12ab",
      amount: "19,99",
      currency: "euro",
      images: ["ftp://x.example/a.jpg"],
    };
    expect(validate(form)).toEqual({
      title: "A title is required",
      gtin: "A GTIN is 8 to 14 digits",
      amount: "Write the price as digits with up to 4 decimals, e.g. 19.99",
      currency: "Choose the price's currency",
      images: "Image 1 is not a web address (http or https)",
    });
  });

  it("refuses a stock that is not a whole number from 0", () => {
    expect(validate({ ...toForm(product), quantity: "-1" })).toEqual({
      quantity: "A whole number from 0, or empty if unknown",
    });
    expect(validate({ ...toForm(product), quantity: "2.5", variantQuantities: ["x"] })).toEqual({
      quantity: "A whole number from 0, or empty if unknown",
      variantQuantities: "Variant 1: A whole number from 0, or empty if unknown",
    });
  });

  it("asks for an amount when only a currency is given", () => {
    expect(validate({ ...toForm(product), amount: "", currency: "EUR" }).amount).toBe(
      "Enter an amount, or clear the currency",
    );
  });
});

describe("toPatch", () => {
  it("sends only the version when nothing changed", () => {
    expect(toPatch(toForm(product), product)).toEqual({ version: 3 });
  });

  it("sends what changed, trimmed, with null for a cleared field", () => {
    const form = {
      ...toForm(product),
      title: " Big blue mug ",
      sku: "",
      amount: "21",
      currency: "eur",
      description: "Hand-thrown",
    };
    expect(toPatch(form, product)).toEqual({
      version: 3,
      title: "Big blue mug",
      sku: null,
      price: { amount: "21", currency: "EUR" },
    });
  });

  it("sends the stock when it changed (empty is unknown), and the variants whole when a variant's stock changed", () => {
    const variant = {
      sku: "MUG-S",
      title: "Small",
      price: null,
      options: { Size: "S" },
      gtin: null,
      availability: "InStock",
      image: null,
      quantity: 2,
    };
    const withVariants = { ...product, quantity: 5, variants: [variant] };
    expect(toForm(withVariants)).toMatchObject({ quantity: "5", variantQuantities: ["2"] });
    expect(toPatch({ ...toForm(withVariants), quantity: "0" }, withVariants)).toEqual({
      version: 3,
      quantity: 0,
    });
    expect(toPatch({ ...toForm(withVariants), quantity: "" }, withVariants)).toEqual({
      version: 3,
      quantity: null,
    });
    expect(toPatch({ ...toForm(withVariants), variantQuantities: ["9"] }, withVariants)).toEqual({
      version: 3,
      variants: [{ ...variant, quantity: 9 }],
    });
  });

  it("drops empty image lines and keeps the order the user chose", () => {
    const form = {
      ...toForm(product),
      images: ["https://img.example/2.jpg", " ", "https://img.example/1.jpg"],
    };
    expect(toPatch(form, product).images).toEqual([
      "https://img.example/2.jpg",
      "https://img.example/1.jpg",
    ]);
  });
});

it("fieldOf finds the field a 422 names", () => {
  expect(fieldOf('body field "price.currency" must match pattern')).toBe("currency");
  expect(fieldOf('body field "price.amount" must be a string')).toBe("amount");
  expect(fieldOf('body field "gtin" must match pattern')).toBe("gtin");
  expect(fieldOf('body field "variants" is too long')).toBeNull();
  expect(fieldOf('body field "quantity" must be integer')).toBe("quantity");
  expect(fieldOf('body field "variants.2.quantity" must be integer')).toBe("variantQuantities");
  expect(fieldOf("the store said no")).toBeNull();
});

it("moveUp moves one item a place earlier, and leaves the first where it is", () => {
  expect(moveUp(["a", "b", "c"], 2)).toEqual(["a", "c", "b"]);
  expect(moveUp(["a", "b"], 0)).toEqual(["a", "b"]);
});
