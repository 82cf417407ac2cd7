import { errorsOf, fixture, productsOf, readRows } from "./support/platform-documents.js";

// Fixtures follow BigCommerce's documented CSV layouts: the legacy Bulk Edit export ("Item Type"
// Product/SKU/Rule rows) and the modern template ("Item" Product/Variant/Image rows).
describe("BigCommerce legacy export (Item Type)", () => {
  const file = fixture("bigcommerce-legacy-export.csv");

  test("a Product row and the SKU rows under it are one product with variants", async () => {
    const rows = await readRows(file, { currency: "USD" });
    expect(errorsOf(rows)).toEqual([]);
    expect(productsOf(rows).map((p) => [p.title, p.variants.length])).toEqual([
      ["Fog Linen Chambray Towel", 2],
      ["Orbit Terrarium - Large", 0],
      ["Able Brewing System", 0],
    ]);
  });

  test("SKU rows: options from [S]Name=Value, their own stock; Rule rows change the price", async () => {
    const [towel] = productsOf(await readRows(file, { currency: "USD" }));
    expect(towel!.variants.map((v) => [v.sku, v.options, v.price, v.quantity])).toEqual([
      ["SLCTBS-S", { Size: "Small", Color: "Beige" }, { amount: "49.00", currency: "USD" }, 10],
      // [ADD]10.00 for Size=Large.
      ["SLCTBS-L", { Size: "Large", Color: "Beige" }, { amount: "59.00", currency: "USD" }, 5],
    ]);
    expect(towel!.variants[0]!.gtin).toBe("0036000291452");
    expect(towel).toMatchObject({
      sku: "SLCTBS",
      brand: "Common Good",
      // Tracked by option: the variants' total, not the product row's 0.
      quantity: 15,
      availability: "InStock",
      price: { amount: "49.00", currency: "USD" },
      images: ["https://cdn.example.com/products/77/images/266/towel1.jpg"],
      attributes: { relativeImagesLeftOut: ["towel2.jpg"], bigcommerceId: "77", visible: true },
    });
  });

  test("a sale price above 0 is the price; 0 means none; untracked stock has no count", async () => {
    const [, terrarium, brewer] = productsOf(await readRows(file, { currency: "USD" }));
    expect(terrarium).toMatchObject({
      price: { amount: "99.00", currency: "USD" },
      quantity: 12,
      attributes: { regularPrice: "109.00" },
      images: ["https://cdn.example.com/products/88/images/292/terrarium.jpg"],
    });
    expect(brewer).toMatchObject({
      price: { amount: "225.00", currency: "USD" },
      quantity: null,
      attributes: { retailPrice: "250.00", visible: false },
    });
  });

  test("a product of more rows than any product can have is reported, not held", async () => {
    const lines = ["Item Type,Product Name,Product Code/SKU,Price", "Product,Tee,TEE,5.00"];
    for (let i = 0; i < 5000; i++) lines.push(`SKU,[S]Size=${i},TEE-${i},`);
    lines.push("Product,Cap,CAP,3.00");
    const rows = await readRows(lines.join("\n"), { currency: "USD" });
    expect(errorsOf(rows)).toEqual([
      "row 2: product has more than 5000 rows; is column Item Type filled correctly?",
    ]);
    expect(productsOf(rows).map((p) => p.title)).toEqual(["Cap"]);
  });

  test("a SKU row before any Product row is reported", async () => {
    const csv = 'Item Type,Product Name,Price\nSKU,"[S]Size=Small",1.00\n';
    expect(errorsOf(await readRows(csv, { currency: "USD" }))).toEqual([
      "row 2: a SKU row before any Product row; a product's rows follow its Product row",
    ]);
  });
});

describe("BigCommerce modern template (Item)", () => {
  const file = fixture("bigcommerce-bulk-edit.csv");

  test("Variant and Image rows belong to the Product row above them; Video rows are skipped", async () => {
    const rows = await readRows(file, { currency: "GBP" });
    expect(errorsOf(rows)).toEqual([]);
    expect(productsOf(rows).map((p) => [p.sku, p.variants.length])).toEqual([
      ["TSHIRT", 3],
      ["SPK-1", 0],
    ]);
  });

  test("Options Type=|Name=|Value= give the options; a variant without a price has the product's", async () => {
    const [shirt] = productsOf(await readRows(file, { currency: "GBP" }));
    expect(shirt!.variants.map((v) => [v.sku, v.options, v.price?.amount, v.quantity])).toEqual([
      ["TSHIRT-S-WHT", { Size: "S", Colour: "White" }, "25.00", 12],
      ["TSHIRT-M-WHT", { Size: "M", Colour: "White" }, "25.00", 8],
      ["TSHIRT-L-BLK", { Size: "L", Colour: "Black" }, "27.00", 0],
    ]);
    expect(shirt).toMatchObject({
      title: "Organic Cotton T-Shirt",
      brand: "Acme",
      mpn: "ACM-TS",
      price: { amount: "25.00", currency: "GBP" },
      quantity: 20,
      attributes: { retailPrice: "30.00" },
    });
    // The thumbnail first, then the other Image rows, then variant images.
    expect(shirt!.images).toEqual([
      "https://cdn.example.com/tshirt-front.jpg",
      "https://cdn.example.com/tshirt-back.jpg",
      "https://cdn.example.com/tshirt-black.jpg",
    ]);
  });

  test("sale price and product-level stock", async () => {
    const [, speaker] = productsOf(await readRows(file, { currency: "GBP" }));
    expect(speaker).toMatchObject({
      price: { amount: "64.00", currency: "GBP" },
      quantity: 40,
      availability: "InStock",
      attributes: { regularPrice: "80.00" },
    });
  });

  test("an Item the template does not have is reported, not skipped", async () => {
    const csv = "Item,Name,SKU,Options,Price\nProduct,Mug,MUG,,9.00\nShirt,Tee,TEE,,5.00\n";
    const rows = await readRows(csv, { currency: "USD" });
    expect(errorsOf(rows)).toEqual([
      'row 3: column Item is "Shirt"; expected "Product", "Variant", "Image"',
    ]);
    expect(productsOf(rows)).toHaveLength(1);
  });

  test("a Variant row without options says what it expected", async () => {
    const csv = "Item,Name,SKU,Options,Price\nProduct,Mug,MUG,,9.00\nVariant,,MUG-1,,\n";
    expect(errorsOf(await readRows(csv, { currency: "USD" }))).toEqual([
      "row 3: a variant row without option values (column Options); expected Type=Dropdown|Name=Size|Value=Small",
    ]);
  });
});
