import { urlImportName } from "../src/importing/url-import-name.js";

test("one page is named by its host and path", () => {
  expect(urlImportName(["https://shop.example/products/blue-mug?ref=1"])).toBe(
    "shop.example/products/blue-mug",
  );
  expect(urlImportName(["https://shop.example/"])).toBe("shop.example");
  expect(urlImportName([`https://shop.example/${"a".repeat(120)}`])).toHaveLength(80);
});

test("several pages are counted by site", () => {
  expect(urlImportName(["https://shop.example/a", "https://shop.example/b"])).toBe(
    "2 pages from shop.example",
  );
  expect(
    urlImportName(["https://shop.example/a", "https://other.example/b", "https://shop.example/c"]),
  ).toBe("3 pages from 2 sites");
});
