import { expect, it } from "vitest";
import { countsText, kindText, resultText } from "./import-counts";

const counts = { create: 0, update: 0, unchanged: 0, error: 0, skipped: 0, noCurrency: 0 };

it("countsText names what the preview found, singular or plural", () => {
  expect(countsText({ ...counts, create: 12, update: 3, error: 1 })).toBe(
    "12 new · 3 updates · 1 error",
  );
  expect(countsText({ ...counts, update: 1, unchanged: 4, error: 2 })).toBe(
    "1 update · 4 unchanged · 2 errors",
  );
  expect(countsText(counts)).toBe("No rows");
});

it("resultText names what storing did, leaving out what is zero", () => {
  expect(resultText({ created: 1200, updated: 3, unchanged: 0, skipped: 0 })).toBe(
    "1,200 created · 3 updated",
  );
  expect(resultText({ created: 0, updated: 0, unchanged: 2, skipped: 1 })).toBe(
    "0 created · 0 updated · 2 unchanged · 1 left out",
  );
});

it("kindText says how the import was started", () => {
  expect(kindText({ kind: "urls", currency: null })).toBe("Web pages");
  expect(kindText({ kind: "document", currency: "EUR" })).toBe("File · prices in EUR when missing");
});
