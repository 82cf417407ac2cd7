import { errorsOf, fixture, productsOf, readRows } from "./support/platform-documents.js";

// The fixture follows the catalog_product layout of Adobe's "Product attributes reference":
// two configurables (MH01 after its three children, WS12 before its four), two simple products
// visible on their own, and a store-view ("fr") row overriding one of them.
const file = fixture("magento-catalog-product.csv");

describe("Magento 2 catalog_product CSV", () => {
  test("configurables gather their children; children and store-view rows are not products", async () => {
    const rows = await readRows(file, { filename: "catalog_product.csv", currency: "USD" });
    expect(errorsOf(rows)).toEqual([]);
    const products = productsOf(rows);
    expect(products.map((p) => p.sku)).toEqual(["MH01", "WS12", "24-MB01", "24-MB04"]);
    expect(products.map((p) => p.variants.length)).toEqual([3, 4, 0, 0]);
  });

  test("children before their parent become its variants with the labelled options", async () => {
    const [hoodie] = productsOf(await readRows(file, { currency: "USD" }));
    expect(hoodie).toMatchObject({
      title: "Chaz Kangeroo Hoodie",
      brand: "Acme",
      price: { amount: "52.00", currency: "USD" },
      // The variants' total: 100 + 0 + 5.
      quantity: 105,
      availability: "InStock",
    });
    expect(hoodie!.variants).toEqual([
      expect.objectContaining({
        sku: "MH01-XS-Black",
        options: { Size: "XS", Color: "Black" },
        price: { amount: "52.00", currency: "USD" },
        quantity: 100,
        availability: "InStock",
      }),
      expect.objectContaining({
        sku: "MH01-XS-Gray",
        options: { Size: "XS", Color: "Gray" },
        quantity: 0,
        availability: "OutOfStock",
      }),
      // special_price is what the child sells for.
      expect.objectContaining({
        sku: "MH01-S-Black",
        price: { amount: "49.00", currency: "USD" },
        quantity: 5,
      }),
    ]);
    expect(hoodie!.attributes.additionalAttributes).toEqual({
      brand: "Acme",
      material: "Cotton, Polyester",
    });
  });

  test("children after their parent attach too; a child without a price sells at the parent's", async () => {
    const [, tee] = productsOf(await readRows(file, { currency: "EUR" }));
    expect(tee!.variants.map((v) => [v.sku, v.options, v.price?.amount, v.quantity])).toEqual([
      ["WS12-XS-Blue", { Size: "XS", Color: "Blue" }, "22.00", 10],
      ["WS12-S-Blue", { Size: "S", Color: "Blue" }, "22.00", 20],
      ["WS12-M-Blue", { Size: "M", Color: "Blue" }, "22.00", 30],
      ["WS12-M-Orange", { Size: "M", Color: "Orange" }, "24.00", 0],
    ]);
    expect(tee!.price).toEqual({ amount: "22.00", currency: "EUR" });
    expect(tee!.quantity).toBe(60);
    expect(tee!.images).toEqual([
      "https://shop.example.com/media/catalog/product/w/s/ws12-orange_main.jpg",
      "https://shop.example.com/media/catalog/product/w/s/ws12-blue_main.jpg",
    ]);
  });

  test("image URLs are kept; paths relative to the media folder are listed as left out", async () => {
    const [hoodie, , bag] = productsOf(await readRows(file, { currency: "USD" }));
    expect(hoodie!.images).toEqual([
      "https://shop.example.com/media/catalog/product/m/h/mh01-black_main.jpg",
      "https://shop.example.com/media/catalog/product/m/h/mh01-black_alt1.jpg",
    ]);
    expect(hoodie!.attributes.relativeImagesLeftOut).toEqual(["/m/h/mh01-black_back.jpg"]);
    expect(bag!.images).toEqual([
      "https://shop.example.com/media/catalog/product/m/b/mb01-blue-0.jpg",
    ]);
    expect(bag!.attributes.relativeImagesLeftOut).toEqual(["/m/b/mb01-blue-1.jpg"]);
  });

  test("simple products: special_price, qty, brand/gtin/mpn from additional_attributes", async () => {
    const [, , bag, pack] = productsOf(await readRows(file, { currency: "USD" }));
    expect(bag).toMatchObject({
      title: "Joust Duffle Bag",
      price: { amount: "34.00", currency: "USD" },
      quantity: 100,
      brand: "Acme",
      gtin: "0012345678905",
      // The "fr" store-view row is skipped: the default row's name stays.
      attributes: { urlKey: "joust-duffle-bag" },
    });
    expect(pack).toMatchObject({
      title: "Strive Shoulder Pack",
      price: { amount: "25.60", currency: "USD" },
      quantity: 40,
      brand: "Strive",
      mpn: "STR-04",
      attributes: { regularPrice: "32.00" },
    });
  });

  test("without the upload's currency the amounts are kept aside, not guessed", async () => {
    const [hoodie] = productsOf(await readRows(file));
    expect(hoodie!.price).toBeNull();
    expect(hoodie!.attributes.priceWithoutCurrency).toBe("52.00");
  });

  test("a child visible on its own is both a variant and a product", async () => {
    const csv =
      "sku,attribute_set_code,product_type,name,visibility,price,qty,configurable_variations,configurable_variation_labels\n" +
      'LAMP,Default,configurable,Desk lamp,"Catalog, Search",30.00,0,"sku=LAMP-W,color=White|sku=LAMP-B,color=Black",color=Colour\n' +
      'LAMP-W,Default,simple,Desk lamp white,"Not Visible Individually",30.00,3,,\n' +
      'LAMP-B,Default,simple,Desk lamp black,"Catalog, Search",32.00,4,,\n';
    const products = productsOf(await readRows(csv, { currency: "EUR" }));
    expect(
      products.map((p) => [p.sku, p.variants.map((v) => [v.sku, v.options, v.price?.amount])]),
    ).toEqual([
      [
        "LAMP",
        [
          ["LAMP-W", { Colour: "White" }, "30.00"],
          ["LAMP-B", { Colour: "Black" }, "32.00"],
        ],
      ],
      ["LAMP-B", []],
    ]);
  });

  test("a not-visible simple row no configurable lists is still a product", async () => {
    const csv =
      "sku,store_view_code,attribute_set_code,product_type,name,visibility,price,qty,configurable_variations\n" +
      'KIT-PART,,Default,simple,Spare strap,"Not Visible Individually",4.50,7,\n';
    const products = productsOf(await readRows(csv, { currency: "GBP" }));
    expect(products).toEqual([
      expect.objectContaining({
        sku: "KIT-PART",
        price: { amount: "4.50", currency: "GBP" },
        quantity: 7,
      }),
    ]);
  });

  test("rows held for a later configurable are bounded: the oldest are let go as products", async () => {
    const lines = [
      "sku,attribute_set_code,product_type,name,visibility,price,configurable_variations",
    ];
    for (let i = 1; i <= 50_001; i++)
      lines.push(`C-${i},Default,simple,Part ${i},"Not Visible Individually",1.00,`);
    lines.push(
      'KIT,Default,configurable,Kit,"Catalog, Search",9.00,"sku=C-1,size=S|sku=C-2,size=M"',
    );
    const products = productsOf(await readRows(lines.join("\n"), { currency: "USD" }));
    // C-1 was let go before the kit came; C-2 was still held and became its variant only.
    expect(products).toHaveLength(50_001);
    expect(products.some((p) => p.sku === "C-1")).toBe(true);
    expect(products.some((p) => p.sku === "C-2")).toBe(false);
    const kit = products.find((p) => p.sku === "KIT")!;
    expect(kit.variants.map((v) => [v.sku, v.price?.amount])).toEqual([
      ["C-1", "9.00"],
      ["C-2", "1.00"],
    ]);
  });

  test("a row without a SKU is reported with its row number", async () => {
    const csv = "sku,attribute_set_code,product_type,name,price\n,Default,simple,No sku,1.00\n";
    expect(errorsOf(await readRows(csv, { currency: "USD" }))).toEqual([
      "row 2: no SKU (column sku); every Magento product row names its SKU",
    ]);
  });
});
