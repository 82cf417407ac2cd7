import { extractProduct } from "../src/html/index.js";

const URL_ = "https://shop.example.com/p/blue-shirt";

function page(head: string, body = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

describe("extractProduct: JSON-LD", () => {
  test("@graph with @id references, Offer, brand object, gtin13, availability URL", () => {
    const html = page(
      ld({
        "@context": "https://schema.org",
        "@graph": [
          { "@type": "WebPage", "@id": "#page", mainEntity: { "@id": "#product" } },
          { "@type": "Brand", "@id": "#brand", name: "Acme" },
          {
            "@type": "Product",
            "@id": "#product",
            name: "Blue &amp; White Shirt",
            sku: "BS-1",
            gtin13: "4006381333931",
            mpn: "M-1",
            brand: { "@id": "#brand" },
            image: ["/img/a.jpg", "//cdn.example.com/b.jpg", "/img/a.jpg"],
            offers: {
              "@type": "Offer",
              price: "19.90",
              priceCurrency: "EUR",
              availability: "https://schema.org/InStock",
            },
          },
        ],
      }),
    );
    const c = extractProduct(html, URL_);
    expect(c).toMatchObject({
      title: "Blue & White Shirt",
      sku: "BS-1",
      gtin: "4006381333931",
      mpn: "M-1",
      brand: "Acme",
      price: { amount: "19.90", currency: "EUR" },
      availability: "InStock",
      images: ["https://shop.example.com/img/a.jpg", "https://cdn.example.com/b.jpg"],
    });
    expect(c?.provenance.price).toEqual({ source: "json-ld", method: "Product.offers.price" });
    expect(c?.provenance.title?.source).toBe("json-ld");
  });

  test("AggregateOffer gives its low price; ImageObject and a brand string are read", () => {
    const html = page(
      ld({
        "@context": "http://schema.org/",
        "@type": "Product",
        name: "Lamp",
        brand: "Lumo",
        image: { "@type": "ImageObject", url: "https://img.example.com/lamp.jpg" },
        offers: {
          "@type": "AggregateOffer",
          lowPrice: 25,
          highPrice: 40,
          priceCurrency: "GBP",
          offerCount: 3,
        },
      }),
    );
    const c = extractProduct(html, URL_);
    expect(c?.price).toEqual({ amount: "25.00", currency: "GBP" });
    expect(c?.brand).toBe("Lumo");
    expect(c?.images).toEqual(["https://img.example.com/lamp.jpg"]);
    expect(c?.provenance.price?.method).toBe("Product.offers.lowPrice");
  });

  test("priceSpecification without a plain price; the list price is passed over", () => {
    const html = page(
      ld({
        "@type": "Product",
        name: "Kettle",
        offers: {
          "@type": "Offer",
          priceCurrency: "USD",
          priceSpecification: [
            {
              "@type": "UnitPriceSpecification",
              priceType: "https://schema.org/ListPrice",
              price: 59.99,
              priceCurrency: "USD",
            },
            { "@type": "UnitPriceSpecification", price: 49.5, priceCurrency: "USD" },
          ],
        },
      }),
    );
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "49.50", currency: "USD" });
  });

  test("ProductGroup with hasVariant gives variants with options; mainEntity nesting is followed", () => {
    const html = page(
      ld({
        "@context": "https://schema.org",
        "@type": "ItemPage",
        mainEntity: {
          "@type": "ProductGroup",
          name: "Tee",
          productGroupID: "TEE",
          variesBy: ["https://schema.org/size"],
          hasVariant: [
            {
              "@type": "Product",
              sku: "TEE-S",
              name: "Tee S",
              size: "S",
              gtin: "00012345678905",
              offers: {
                "@type": "Offer",
                price: "10.00",
                priceCurrency: "EUR",
                availability: "InStock",
              },
            },
            {
              "@type": "Product",
              sku: "TEE-M",
              name: "Tee M",
              size: "M",
              offers: {
                "@type": "Offer",
                price: "12.00",
                priceCurrency: "EUR",
                availability: "OutOfStock",
              },
            },
          ],
        },
      }),
    );
    const c = extractProduct(html, URL_);
    expect(c?.title).toBe("Tee");
    expect(c?.variants).toEqual([
      {
        sku: "TEE-S",
        title: "Tee S",
        price: { amount: "10.00", currency: "EUR" },
        options: { size: "S" },
        gtin: "00012345678905",
        availability: "InStock",
        image: null,
      },
      {
        sku: "TEE-M",
        title: "Tee M",
        price: { amount: "12.00", currency: "EUR" },
        options: { size: "M" },
        gtin: null,
        availability: "OutOfStock",
        image: null,
      },
    ]);
    expect(c?.price).toEqual({ amount: "10.00", currency: "EUR" });
  });

  test("broken JSON-LD: comments, trailing commas, raw line breaks, two objects back to back", () => {
    const html = page(`<script type="application/ld+json">
      // generated by a theme
      {"@type": "BreadcrumbList", "itemListElement": [],}
      {"@context": "https://schema.org", "@type": "Product", "name": "Desk
 Lamp", /* sale */ "sku": "DL-9",
       "offers": {"@type": "Offer", "price": "1.299,00", "priceCurrency": "EUR",},}
    </script><script type="application/ld+json">{ not json at all</script>`);
    const c = extractProduct(html, URL_);
    expect(c).toMatchObject({
      title: "Desk Lamp",
      sku: "DL-9",
      price: { amount: "1299.00", currency: "EUR" },
    });
  });

  test("a page of product lists only is not a product page", () => {
    const html = page(
      ld({
        "@type": "ItemList",
        itemListElement: [{ "@type": "ListItem", item: { "@type": "Product", name: "A" } }],
      }),
      "<h2>Category</h2>",
    );
    expect(extractProduct(html, URL_)).toBeNull();
  });
});

describe("extractProduct: microdata and RDFa", () => {
  test("microdata Product with a nested Offer, content attributes and link availability", () => {
    const html = page(
      "",
      `
      <div itemscope itemtype="https://schema.org/Product">
        <h1 itemprop="name">Executive  Anvil</h1>
        <img itemprop="image" src="anvil_executive.jpg">
        <span itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">ACME</span></span>
        <span itemprop="sku" content="4667999">466/7999</span>
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          Regular price: <del>$179.99</del>
          <span itemprop="priceCurrency" content="USD">$</span><span itemprop="price" content="119.99">119.99</span>
          <link itemprop="availability" href="https://schema.org/InStock">
        </div>
        <div itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product"><span itemprop="name">Other</span></div>
      </div>`,
    );
    const c = extractProduct(html, "https://anvils.example.com/shop/anvil.html");
    expect(c).toMatchObject({
      title: "Executive Anvil",
      brand: "ACME",
      sku: "466/7999",
      availability: "InStock",
      price: { amount: "119.99", currency: "USD" },
      images: ["https://anvils.example.com/shop/anvil_executive.jpg"],
    });
    expect(c?.provenance.title).toEqual({ source: "microdata", method: "Product.name" });
  });

  test("RDFa Product with schema: prefixes", () => {
    const html = page(
      "",
      `
      <div vocab="https://schema.org/" typeof="Product">
        <span property="name">Garden Chair</span>
        <span property="sku">GC-2</span>
        <div property="offers" typeof="Offer">
          <meta property="priceCurrency" content="CHF"><span property="price" content="89.00">CHF 89.–</span>
          <link property="availability" href="http://schema.org/PreOrder">
        </div>
      </div>`,
    );
    expect(extractProduct(html, URL_)).toMatchObject({
      title: "Garden Chair",
      sku: "GC-2",
      price: { amount: "89.00", currency: "CHF" },
      availability: "PreOrder",
    });
  });
});

describe("extractProduct: OpenGraph and product meta tags", () => {
  test("og:type product with product:price, site name stripped from og:title, h1 preferred when it is the name", () => {
    const html = page(`
      <meta property="og:type" content="product">
      <meta property="og:site_name" content="Shoe Hut">
      <meta property="og:title" content="Trail Runner 2 | Shoe Hut">
      <meta property="og:image" content="//cdn.shoehut.example/tr2.jpg">
      <meta property="product:price:amount" content="89.95">
      <meta property="product:price:currency" content="EUR">
      <meta property="product:availability" content="in stock">
      <meta property="product:retailer_item_id" content="TR-2">
      <meta property="product:brand" content="Hut">`);
    const c = extractProduct(html, URL_);
    expect(c).toMatchObject({
      title: "Trail Runner 2",
      sku: "TR-2",
      brand: "Hut",
      availability: "InStock",
      price: { amount: "89.95", currency: "EUR" },
      images: ["https://cdn.shoehut.example/tr2.jpg"],
    });
    expect(c?.provenance.price).toEqual({ source: "opengraph", method: "product:price:amount" });
  });

  test("a markup price without any currency takes the page country's, and says so", () => {
    const html =
      page(`<meta property="og:type" content="product"><meta property="og:title" content="Mug">
      <meta property="og:price:amount" content="12.5">`);
    const c = extractProduct(html, "https://shop.example.co.uk/mug");
    expect(c?.price).toEqual({ amount: "12.50", currency: "GBP" });
    expect(c?.provenance.price?.method).toContain("country");
    const unknown = extractProduct(html, "https://shop.example.com/mug");
    expect(unknown?.price).toBeNull();
    expect(unknown?.attributes["priceAmountWithoutCurrency"]).toBe("12.50");
  });

  test("an article page is not a product", () => {
    const html = page(
      `<meta property="og:type" content="article"><meta property="og:title" content="News">`,
      "<h1>News</h1><p>Text</p>",
    );
    expect(extractProduct(html, URL_)).toBeNull();
  });
});
