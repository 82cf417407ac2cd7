import { detectLayout, indexHeaders } from "../src/documents/column-names.js";
import { fixture } from "./support/platform-documents.js";

function layoutOf(headerLine: string, delimiter = ",") {
  return detectLayout(indexHeaders(headerLine.split(delimiter)));
}

function fixtureLayout(name: string, delimiter = ",") {
  return layoutOf(fixture(name).toString("utf8").split("\n")[0]!, delimiter);
}

describe("each platform's export is read by its own reader", () => {
  test.each([
    ["magento-catalog-product.csv", ",", "magento"],
    ["prestashop-products.csv", ";", "prestashop"],
    ["prestashop-products-combinations.csv", ";", "prestashop"],
    ["prestashop-combinations.csv", ";", "prestashop"],
    ["bigcommerce-legacy-export.csv", ",", "bigcommerce"],
    ["bigcommerce-bulk-edit.csv", ",", "bigcommerce-v3"],
  ])("%s", (name, delimiter, layout) => {
    expect(fixtureLayout(name, delimiter)).toBe(layout);
  });

  test("Shopify, WooCommerce and plain spreadsheets are read as before", () => {
    expect(
      layoutOf(
        "Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value,Variant SKU,Variant Price,Image Src",
      ),
    ).toBe("shopify");
    expect(
      layoutOf(
        "ID,Type,SKU,Name,Published,Regular price,Sale price,Parent,Attribute 1 name,Attribute 1 value(s),Stock,Images",
      ),
    ).toBe("woocommerce");
    expect(layoutOf("Title,Price,Currency,Image")).toBe("generic");
    expect(layoutOf("id\ttitle\tprice\tavailability\timage_link", "\t")).toBe("generic");
    // A plain sheet that happens to have Name, Type and Price is not a platform's.
    expect(layoutOf("Name,Type,Price,Item,SKU")).toBe("generic");
    expect(layoutOf("sku,name,price,product_type")).toBe("generic");
  });
});
