import { extractProduct } from "../src/html/index.js";

function page(head: string, body: string): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

describe("extractProduct: Shopify", () => {
  const productJson = {
    id: 1,
    title: "Canvas Tote",
    vendor: "Acme Bags",
    description: "<p>Sturdy &amp; roomy</p>",
    images: ["//cdn.shopify.com/s/files/tote.jpg", "//cdn.shopify.com/s/files/tote-2.jpg"],
    options: ["Colour"],
    variants: [
      {
        id: 11,
        title: "Red",
        option1: "Red",
        sku: "TOTE-R",
        price: 2500,
        available: false,
        barcode: "4006381333931",
      },
      {
        id: 12,
        title: "Blue",
        option1: "Blue",
        sku: "TOTE-B",
        price: 2750,
        available: true,
        barcode: null,
      },
    ],
  };

  test("data-product-json: cents, the variant in the URL, variants with options", () => {
    const html = page(
      `<script>Shopify.currency = {"active":"CAD","rate":"1.0"};</script>`,
      `<script type="application/json" data-product-json>${JSON.stringify(productJson)}</script>`,
    );
    const c = extractProduct(html, "https://tote.example.com/products/canvas-tote?variant=12");
    expect(c).toMatchObject({
      title: "Canvas Tote",
      brand: "Acme Bags",
      sku: "TOTE-B",
      price: { amount: "27.50", currency: "CAD" },
      availability: "InStock",
      description: "Sturdy & roomy",
      images: [
        "https://cdn.shopify.com/s/files/tote.jpg",
        "https://cdn.shopify.com/s/files/tote-2.jpg",
      ],
    });
    expect(c?.variants[0]).toMatchObject({
      sku: "TOTE-R",
      options: { Colour: "Red" },
      gtin: "4006381333931",
      availability: "OutOfStock",
    });
    expect(c?.provenance.sku).toEqual({
      source: "shopify",
      method: "data-product-json.variants.sku",
    });
  });

  test("ShopifyAnalytics `var meta = {...}` when there is no product JSON", () => {
    const html = page(
      "",
      `<script>window.ShopifyAnalytics = window.ShopifyAnalytics || {};
      var meta = {"product":{"id":1,"vendor":"Acme","type":"Bag","variants":[{"id":5,"price":1999,"name":"Tote - S","public_title":"S","sku":"T-S"}]},"page":{"pageType":"product"}};
      ShopifyAnalytics.meta.currency = 'USD';</script><h1>Tote</h1>`,
    );
    expect(extractProduct(html, "https://x.example.com/products/tote")).toMatchObject({
      title: "Tote",
      brand: "Acme",
      sku: "T-S",
      price: { amount: "19.99", currency: "USD" },
    });
  });
});

describe("extractProduct: WooCommerce", () => {
  test("title, sale price over the struck one, SKU, stock, gallery and variations", () => {
    const variations = [
      {
        variation_id: 7,
        sku: "HOOD-S",
        display_price: 35,
        is_in_stock: true,
        attributes: { attribute_pa_size: "s" },
        image: { full_src: "/wp/hood-s.jpg" },
      },
    ];
    const html = page(
      `<link rel="canonical" href="https://woo.example.ie/product/hoodie/">`,
      `
      <div class="product type-product">
        <div class="woocommerce-product-gallery">
          <div class="woocommerce-product-gallery__image"><a href="/wp/hoodie-full.jpg"><img src="/wp/hoodie-600.jpg" data-large_image="/wp/hoodie-full.jpg"></a></div>
        </div>
        <div class="summary entry-summary">
          <h1 class="product_title entry-title">Hoodie</h1>
          <p class="price"><del><span class="woocommerce-Price-amount amount"><bdi>45,00&nbsp;<span class="woocommerce-Price-currencySymbol">&euro;</span></bdi></span></del>
            <ins><span class="woocommerce-Price-amount amount"><bdi>35,00&nbsp;<span class="woocommerce-Price-currencySymbol">&euro;</span></bdi></span></ins></p>
          <p class="stock in-stock">3 in stock</p>
          <form class="variations_form cart" data-product_variations='${JSON.stringify(variations)}'></form>
          <div class="product_meta"><span class="sku_wrapper">SKU: <span class="sku">HOOD-1</span></span></div>
        </div>
      </div>`,
    );
    const c = extractProduct(html, "https://woo.example.ie/product/hoodie/");
    expect(c).toMatchObject({
      title: "Hoodie",
      sku: "HOOD-1",
      price: { amount: "35.00", currency: "EUR" },
      availability: "InStock",
      images: ["https://woo.example.ie/wp/hoodie-full.jpg"],
    });
    expect(c?.variants).toEqual([
      {
        sku: "HOOD-S",
        title: null,
        price: { amount: "35.00", currency: "EUR" },
        options: { size: "s" },
        gtin: null,
        availability: "InStock",
        image: "https://woo.example.ie/wp/hood-s.jpg",
      },
    ]);
    expect(c?.provenance.price).toEqual({
      source: "woocommerce",
      method: ".woocommerce-Price-amount",
    });
  });
});

describe("extractProduct: pages without markup", () => {
  test("h1, the price next to it (not the struck or related ones), spec-table SKU and brand, stock line, main image", () => {
    const html = page(
      `<meta name="description" content="A  very   good kettle.">`,
      `
      <header><span class="cart-price">£0.00</span></header>
      <h1 class="product-title">Steel Kettle 1.7 L</h1>
      <div class="price-box"><span class="old-price">£39.99</span> <span class="price">£29.99</span></div>
      <div id="availability">In stock.</div>
      <img src="/icons/logo.png" width="100" height="40">
      <img id="main-image" src="/img/kettle-small.jpg" data-zoom-image="/img/kettle-large.jpg">
      <table><tr><th>Brand</th><td>Boilo</td></tr><tr><th>Item number</th><td>KT-1700</td></tr></table>
      <div class="related-products"><span class="price">£9.99</span></div>`,
    );
    const c = extractProduct(html, "https://kettles.example.co.uk/steel-kettle");
    expect(c).toMatchObject({
      title: "Steel Kettle 1.7 L",
      price: { amount: "29.99", currency: "GBP" },
      sku: "KT-1700",
      brand: "Boilo",
      availability: "InStock",
      description: "A very good kettle.",
      images: ["https://kettles.example.co.uk/img/kettle-large.jpg"],
    });
    expect(c?.provenance.title).toEqual({ source: "heuristic", method: "h1" });
  });

  test("relative images resolve against <base href>; protocol-relative ones get https", () => {
    const html = page(
      `<base href="https://static.example.net/shop/"><meta property="og:type" content="product">
      <meta property="og:image" content="images/a.jpg"><meta property="og:image" content="//cdn.example.net/b.jpg">
      <meta property="og:image" content="images/a.jpg">`,
      "<h1>Thing</h1>",
    );
    expect(extractProduct(html, "https://www.example.net/p/thing")?.images).toEqual([
      "https://static.example.net/shop/images/a.jpg",
      "https://cdn.example.net/b.jpg",
    ]);
  });

  test("a text page with a heading and no price is not a product", () => {
    expect(
      extractProduct(
        page("", "<h1>About us</h1><p>We sell things since 1999.</p>"),
        "https://example.com/about",
      ),
    ).toBeNull();
  });

  test("a product id in the URL fills a missing SKU", () => {
    const html = page("", "<h1>Used bike</h1><div class='price'>€ 120</div>");
    expect(
      extractProduct(html, "https://ads.example.de/bikes/used-bike-35985065.html"),
    ).toMatchObject({
      sku: "35985065",
      price: { amount: "120.00", currency: "EUR" },
    });
  });
});
