import { expect, it } from "vitest";
import { describe as describeValue, isEmpty } from "./history-values";

it("isEmpty treats nothing, an empty string, list or object as empty", () => {
  for (const empty of [null, undefined, "", [], {}]) expect(isEmpty(empty)).toBe(true);
  for (const value of [0, false, "x", ["a"], { amount: "1", currency: "EUR" }])
    expect(isEmpty(value)).toBe(false);
});

it("describe reads a history value in a few words", () => {
  expect(describeValue("images", [])).toBe("none");
  expect(describeValue("images", ["a.jpg", "b.jpg"])).toBe("a.jpg, b.jpg");
  expect(describeValue("images", ["1", "2", "3", "4", "5"])).toBe("1, 2, 3 and 2 more");
  expect(describeValue("attributes", {})).toBe("none");
  expect(describeValue("availability", "OutOfStock")).toBe("Out of stock");
  expect(describeValue("quantity", 0)).toBe("0");
  expect(
    describeValue("variants", [
      { title: "Small", sku: "S", quantity: null },
      { title: null, sku: "L", quantity: 0 },
    ]),
  ).toBe("Small, L (stock 0)");
  expect(describeValue("title", "x".repeat(200))).toHaveLength(158);
  expect(describeValue("sku", null)).toBe("—");
});

it("describe shows a description that was plain text as it was written", () => {
  expect(
    describeValue(
      "description",
      "<p>Hand-thrown &amp; glazed<br />by us</p><p>Dishwasher safe</p>",
    ),
  ).toBe("Hand-thrown & glazed\nby us\n\nDishwasher safe");
});
