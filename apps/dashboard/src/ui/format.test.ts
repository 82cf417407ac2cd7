import { expect, it } from "vitest";
import { formatAvailability, formatRelative, formatValue, shortId, countOf } from "./format";

it("formatAvailability reads schema.org names as words", () => {
  expect(formatAvailability("https://schema.org/InStock")).toBe("In stock");
  expect(formatAvailability("LimitedAvailability")).toBe("Limited availability");
  expect(formatAvailability(null)).toBe("—");
});

it("formatRelative says just now, then seconds, minutes, hours, days", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  expect(formatRelative("2026-11-26T11:59:55Z", now)).toBe("just now");
  expect(formatRelative("2026-11-26T11:40:00Z", now)).toMatch(/20 minutes ago/);
  expect(formatRelative("2026-11-24T12:00:00Z", now)).toMatch(/2 days ago/);
  expect(formatRelative("not a date", now)).toBe("not a date");
});

it("formatValue shows empty values as a dash and objects as JSON", () => {
  expect(formatValue("")).toBe("—");
  expect(formatValue(3)).toBe("3");
  expect(formatValue({ a: 1 })).toBe('{"a":1}');
});

it("shortId keeps short ids and cuts long ones to 8 characters", () => {
  expect(shortId("abc")).toBe("abc");
  expect(shortId("0123456789abcdef")).toBe("01234567");
});

it("countOf counts one thing in the singular and the rest in the plural", () => {
  expect(countOf(1, "row")).toBe("1 row");
  expect(countOf(0, "row")).toBe("0 rows");
  expect(countOf(3, "entry", "entries")).toBe("3 entries");
  expect(countOf(1, "entry", "entries")).toBe("1 entry");
  expect(countOf(1200, "product")).toBe((1200).toLocaleString() + " products");
});
