import { describe, expect, it } from "vitest";
import type { ImportRow } from "@catalog/gateway/api-types";
import {
  droppedImagesText,
  parseOutcome,
  previewTitle,
  selectable,
  sentence,
  shortUrl,
  storeLabel,
  storedProductIds,
} from "./rows";

const row = (over: Partial<ImportRow>): ImportRow => ({
  row: 2,
  url: null,
  outcome: "create",
  error: null,
  match: null,
  changes: {},
  product: null,
  warnings: [],
  skipped: false,
  stored: null,
  storedProductId: null,
  ...over,
});

it("parseOutcome keeps only the outcomes a row can have", () => {
  expect(parseOutcome("update")).toBe("update");
  expect(parseOutcome("error")).toBe("error");
  expect(parseOutcome("everything")).toBeUndefined();
  expect(parseOutcome(undefined)).toBeUndefined();
});

it("only new and updated rows can be stored or left out", () => {
  expect(selectable(row({ outcome: "create" }))).toBe(true);
  expect(selectable(row({ outcome: "update" }))).toBe(true);
  expect(selectable(row({ outcome: "unchanged" }))).toBe(false);
  expect(selectable(row({ outcome: "error" }))).toBe(false);
});

it("sentence capitalises a message but leaves one that starts with an address alone", () => {
  expect(sentence("price has no currency")).toBe("Price has no currency");
  expect(sentence("https://shop.example/p was not found")).toBe(
    "https://shop.example/p was not found",
  );
});

describe("shortUrl", () => {
  it("drops the scheme and a bare slash", () => {
    expect(shortUrl("https://shop.example/")).toBe("shop.example");
    expect(shortUrl("https://shop.example:8080/p/mug?colour=blue")).toBe(
      "shop.example:8080/p/mug?colour=blue",
    );
  });

  it("cuts a long address to 70 characters", () => {
    const short = shortUrl(`https://shop.example/${"p".repeat(100)}`);
    expect(short).toHaveLength(68);
    expect(short.endsWith("…")).toBe(true);
  });

  it("shows text that is no URL as it is", () => {
    expect(shortUrl("not a url")).toBe("not a url");
  });
});

it("previewTitle follows the import", () => {
  expect(previewTitle("previewing")).toBe("Preview so far");
  expect(previewTitle("ready")).toBe("Preview");
  expect(previewTitle("stored")).toBe("What was stored");
});

it("storeLabel counts the products to store", () => {
  expect(storeLabel(0)).toBe("Nothing to store");
  expect(storeLabel(1)).toBe("Store 1 product");
  expect(storeLabel(2500)).toBe("Store 2,500 products");
});

it("droppedImagesText gives the count and the first reason", () => {
  expect(droppedImagesText([])).toBeNull();
  expect(droppedImagesText([{ url: "http://a.example/1.jpg", reason: "not https" }])).toBe(
    "1 image left out: not https",
  );
  expect(
    droppedImagesText([
      { url: "http://a.example/1.jpg", reason: "not https" },
      { url: "https://a.example/2.jpg", reason: "too large" },
    ]),
  ).toBe("2 images left out: not https, …");
});

it("storedProductIds lists the products created or updated, not unchanged or left-out rows", () => {
  expect(
    storedProductIds([
      row({ stored: "created", storedProductId: "p1" }),
      row({ stored: "updated", storedProductId: "p2" }),
      row({ stored: "unchanged", storedProductId: "p3" }),
      row({ stored: null, skipped: true }),
    ]),
  ).toEqual(["p1", "p2"]);
});
