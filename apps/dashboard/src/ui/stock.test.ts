import { expect, it } from "vitest";
import { formatQuantity, quantityText, readQuantity } from "./stock";

it("formatQuantity shows a count, and unknown when there is none", () => {
  expect(formatQuantity(0)).toBe("0");
  expect(formatQuantity(1200)).toBe("1,200");
  expect(formatQuantity(null)).toBe("unknown");
  expect(formatQuantity(undefined)).toBe("unknown");
});

it("quantityText is the count as an input holds it, empty when unknown", () => {
  expect(quantityText(7)).toBe("7");
  expect(quantityText(null)).toBe("");
});

it("readQuantity takes whole numbers from 0 and empty (unknown); anything else is explained", () => {
  expect(readQuantity(" 12 ")).toEqual({ ok: true, quantity: 12 });
  expect(readQuantity("0")).toEqual({ ok: true, quantity: 0 });
  expect(readQuantity("")).toEqual({ ok: true, quantity: null });
  for (const bad of ["-1", "1.5", "ten", "2147483648"])
    expect(readQuantity(bad)).toEqual({
      ok: false,
      message: "A whole number from 0, or empty if unknown",
    });
});
