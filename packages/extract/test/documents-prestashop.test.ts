import { errorsOf, fixture, productsOf, readRows } from "./support/platform-documents.js";

// Fixtures follow the columns of PrestaShop's sample products_import.csv and
// combinations_import.csv (Advanced Parameters > Import): semicolon-separated, lists in a cell
// separated by commas.
describe("PrestaShop products CSV", () => {
  test("semicolons, tax-included prices (decimal comma too), references, stock and images", async () => {
    const rows = await readRows(fixture("prestashop-products.csv"), { currency: "EUR" });
    expect(errorsOf(rows)).toEqual([]);
    const [shirt, mug] = productsOf(rows);
    expect(productsOf(rows)).toHaveLength(3);
    expect(shirt).toMatchObject({
      title: "Hummingbird printed t-shirt",
      sku: "demo_1",
      brand: "Studio Design",
      gtin: "3700000000017",
      price: { amount: "28.68", currency: "EUR" },
      quantity: 300,
      availability: "InStock",
      images: ["https://shop.example.com/img/p/1/1.jpg", "https://shop.example.com/img/p/2/2.jpg"],
      description: "<p>Symbol of lightness and delicacy.</p>",
      attributes: {
        priceTax: "included",
        prestashopId: "1",
        categories: ["Home", "Men", "Clothes"],
      },
    });
    expect(shirt!.provenance.price).toEqual({
      source: "document",
      method: "column Price tax included",
    });
    expect(mug).toMatchObject({
      price: { amount: "14.28", currency: "EUR" },
      gtin: "012345678905",
      description: "White ceramic mug, 325ml",
    });
  });

  test("without a tax-included price the tax-excluded one is taken, and said so", async () => {
    const [, , custom] = productsOf(
      await readRows(fixture("prestashop-products.csv"), { currency: "EUR" }),
    );
    expect(custom).toMatchObject({
      title: "Customizable mug",
      price: { amount: "13.90", currency: "EUR" },
      quantity: 0,
      availability: "OutOfStock",
      attributes: { priceTax: "excluded", active: false },
    });
  });
});

describe("PrestaShop combinations", () => {
  test("combination rows in the products' file become variants of their product", async () => {
    const rows = await readRows(fixture("prestashop-products-combinations.csv"), {
      currency: "EUR",
    });
    expect(errorsOf(rows)).toEqual([]);
    const products = productsOf(rows);
    expect(products.map((p) => [p.sku, p.variants.length])).toEqual([
      ["demo_1", 3],
      ["demo_11", 0],
    ]);
    const [shirt] = products;
    // Impact on price is tax excluded: added to 23.90, then the product's tax (28.68 / 23.90).
    expect(shirt!.variants.map((v) => [v.sku, v.options, v.price, v.quantity])).toEqual([
      ["demo_1_s_white", { Size: "S", Color: "White" }, { amount: "28.68", currency: "EUR" }, 120],
      ["demo_1_m_white", { Size: "M", Color: "White" }, { amount: "29.88", currency: "EUR" }, 80],
      ["demo_1_l_black", { Size: "L", Color: "Black" }, { amount: "26.28", currency: "EUR" }, 0],
    ]);
    expect(shirt!.variants[0]!.gtin).toBe("3700000000024");
    expect(shirt!.variants[1]!.image).toBe("https://shop.example.com/img/p/1/4.jpg");
    expect(shirt!.variants[2]!.availability).toBe("OutOfStock");
    // A product with combinations has their stock: 120 + 80 + 0.
    expect(shirt).toMatchObject({
      quantity: 200,
      availability: "InStock",
      price: { amount: "28.68" },
    });
  });

  test("a combinations-only file: each row names the product it cannot find, and what to do", async () => {
    const rows = await readRows(fixture("prestashop-combinations.csv"), { currency: "EUR" });
    expect(productsOf(rows)).toEqual([]);
    const missing =
      "but no product row with that ID or reference is in this file; import the products file first, or put the products and their combinations in one file";
    expect(errorsOf(rows)).toEqual([
      `row 2: a combination of product 1, ${missing}`,
      `row 3: a combination of product 1, ${missing}`,
      `row 4: a combination of product 7, ${missing}`,
    ]);
  });

  test("a combination may name its product by reference instead of ID", async () => {
    const csv =
      "Product ID;Name *;Reference #;Price tax excluded;Attribute (Name:Type:Position)*;Value (Value:Position)*;Quantity\n" +
      ";Poster;demo_7;10.00;;;\n" +
      "demo_7;;;;Dimension:select:0;40x60cm:0;4\n";
    const [poster] = productsOf(await readRows(csv, { currency: "EUR" }));
    expect(poster!.variants).toEqual([
      expect.objectContaining({
        options: { Dimension: "40x60cm" },
        price: { amount: "10.00", currency: "EUR" },
        quantity: 4,
      }),
    ]);
  });

  test("a combination row before its product's row attaches too", async () => {
    const csv =
      "Product ID;Name *;Price tax excluded;Attribute (Name:Type:Position)*;Value (Value:Position)*;Impact on price\n" +
      "5;;;Size:select:0;L:0;3.00\n" +
      "5;Hoodie;40.00;;;\n";
    const rows = await readRows(csv, { currency: "EUR" });
    expect(errorsOf(rows)).toEqual([]);
    expect(productsOf(rows)[0]!.variants).toEqual([
      expect.objectContaining({
        options: { Size: "L" },
        price: { amount: "43.00", currency: "EUR" },
      }),
    ]);
  });

  test("product rows held for combinations are bounded: far-away combinations are reported", async () => {
    const lines = [
      "Product ID;Name *;Price tax excluded;Attribute (Name:Type:Position)*;Value (Value:Position)*",
    ];
    for (let i = 1; i <= 50_001; i++) lines.push(`${i};Item ${i};1.00;;`);
    lines.push("1;;;Size:select:0;M:0");
    const rows = await readRows(lines.join("\n"), { currency: "EUR" });
    expect(productsOf(rows)).toHaveLength(50_001);
    expect(errorsOf(rows)).toEqual([
      "row 50003: combination of product 1 comes too far after its product; put combinations after their product",
    ]);
  });

  test("attributes and values that do not pair up are reported on their row", async () => {
    const csv =
      "Product ID;Name *;Price tax excluded;Attribute (Name:Type:Position)*;Value (Value:Position)*\n" +
      "1;Poster;10.00;;\n" +
      "1;;;Size:select:0, Paper:select:1;40x60cm:0\n";
    expect(errorsOf(await readRows(csv, { currency: "EUR" }))).toEqual([
      "row 3: 2 attributes but 1 values; each attribute (column Attribute (Name:Type:Position)*) needs its value (column Value (Value:Position)*), in the same order",
    ]);
  });
});
