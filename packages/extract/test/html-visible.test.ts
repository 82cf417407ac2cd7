import { extractProduct } from "../src/html/index.js";

// Pages without availability, SKU or brand markup: what the shopper sees has to tell.
const URL_ = "https://shop.example.com/p/kettle-4471";

function page(body: string, head = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

const PRODUCT = `<h1>Steel Kettle 1.7 l</h1><div class="price">€ 39,99</div>`;

describe("extractProduct: availability the shopper sees", () => {
  test.each([
    ["an enabled buy button, English", `<button class="btn">Add to cart</button>`, "InStock"],
    ["an enabled buy button, German", `<button type="submit">In den Warenkorb</button>`, "InStock"],
    ["a submit input, Polish", `<input type="submit" value="Dodaj do koszyka">`, "InStock"],
    [
      "a link styled as a button, Japanese",
      `<a class="cart-button" href="#">カートに入れる</a>`,
      "InStock",
    ],
    ["a sold-out button", `<button disabled>Sold out</button>`, "OutOfStock"],
    [
      "a notify-me button in place of the buy button",
      `<button>Notify me when available</button>`,
      "OutOfStock",
    ],
    ["a pre-order button", `<button>Pre-order</button>`, "PreOrder"],
    [
      "a link that runs the shop's script, Chinese",
      `<a href="javascript:buy_process('x1')">加入購物車</a>`,
      "InStock",
    ],
    [
      "an image button named for buying",
      `<a id="buy_btn" href="javascript:;" onclick="buy('51')"><div class="buy_btn"></div></a>`,
      "InStock",
    ],
  ])("%s", (_name, control, expected) => {
    const c = extractProduct(page(`${PRODUCT}${control}`), URL_);
    expect(c?.availability).toBe(expected);
    expect(c?.provenance.availability).toEqual({ source: "heuristic", method: "buy button" });
  });

  test.each([
    ["English", `<button class="reply-button">reply</button>`],
    [
      "English, a link styled as a button",
      `<a class="button" href="/FormUsedAdEmail?id=7">Email User</a>`,
    ],
    ["German", `<button id="ButtonMail" type="button"><strong>Kontaktieren</strong></button>`],
    ["French", `<button>Contacter le vendeur</button>`],
  ])("a classified ad that can be answered (%s) is on offer", (_name, control) => {
    const c = extractProduct(page(`${PRODUCT}${control}`), URL_);
    expect(c?.availability).toBe("InStock");
    expect(c?.provenance.availability).toEqual({ source: "heuristic", method: "contact button" });
  });

  test('a contact button never outweighs the buy button\'s state, and "Contact us" is no offer', () => {
    expect(
      extractProduct(
        page(`${PRODUCT}<button>Contact seller</button><button>Sold out</button>`),
        URL_,
      )?.availability,
    ).toBe("OutOfStock");
    expect(
      extractProduct(page(`${PRODUCT}<button>Contact us</button>`), URL_)?.availability,
    ).toBeNull();
    expect(
      extractProduct(page(`${PRODUCT}<a href="/contact">Kontaktieren</a>`), URL_)?.availability,
    ).toBeNull();
  });

  test("a disabled buy button says nothing (it may wait for a size to be chosen)", () => {
    expect(
      extractProduct(
        page(`${PRODUCT}<button class="add-to-cart disabled" disabled>Add to cart</button>`),
        URL_,
      )?.availability,
    ).toBeNull();
  });

  test('a plain link reading "Buy" in the menu, or an empty link to the cart, is not a buy button', () => {
    expect(
      extractProduct(page(`<nav><a href="/buy">Buy</a></nav>${PRODUCT}`), URL_)?.availability,
    ).toBeNull();
    expect(
      extractProduct(page(`${PRODUCT}<a class="cart" href="/cart"><img src="/cart.png"></a>`), URL_)
        ?.availability,
    ).toBeNull();
  });

  test("the product's own button counts, not a related product's further down", () => {
    const html = page(`${PRODUCT}<button>Sold out</button>
      <section class="related"><h2>You may also like</h2><button>Add to cart</button></section>`);
    expect(extractProduct(html, URL_)?.availability).toBe("OutOfStock");
  });

  test("an empty slot named out-of-stock is no evidence; the stock line beside it is", () => {
    const html = page(
      `${PRODUCT}<div id="out-of-stock-banner"></div><p class="stock-info">Usually dispatched within 24 hours</p>`,
    );
    expect(extractProduct(html, URL_)).toMatchObject({
      availability: "InStock",
      provenance: { availability: { source: "heuristic", method: "stock text" } },
    });
  });

  test.each([
    ["Pieejamība: 1 gab", "InStock"],
    ["Availability: 0 pcs", "OutOfStock"],
    ["Razpoložljivost: Dobavljivo", "InStock"],
    ["Verfügbarkeit: nicht lieferbar", "OutOfStock"],
  ])("a labelled stock value: %s", (line, expected) => {
    const c = extractProduct(
      page(`${PRODUCT}<ul><li>${line.replace(/^([^:]+):/, "<strong>$1:</strong>")}</li></ul>`),
      URL_,
    );
    expect(c?.availability).toBe(expected);
    expect(c?.provenance.availability?.method).toBe("label availability");
  });

  test("one Product per size: in stock when any size is, though the first is sold out", () => {
    const size = (sku: string, availability: string): unknown => ({
      "@type": "Product",
      name: "Boots",
      sku,
      offers: { "@type": "Offer", price: "59.95", priceCurrency: "EUR", availability },
    });
    const html = page(
      "",
      ld([
        size("B-35", "https://schema.org/OutOfStock"),
        size("B-36", "https://schema.org/InStock"),
      ]),
    );
    expect(extractProduct(html, URL_)?.availability).toBe("InStock");
  });
});

describe("extractProduct: the reference the page labels for the shopper", () => {
  const markup = (sku: string): string =>
    ld({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Drum unit",
      sku,
      offers: { "@type": "Offer", price: "20.00", priceCurrency: "RON" },
    });
  const shown = `<h1>Drum unit</h1><span class="product-code-display">Cod produs: DR2401</span>`;

  test("markup's SKU that is only the id in the page's URL gives way to the labelled code", () => {
    const c = extractProduct(
      page(shown, markup("DMCSZ4BBM")),
      "https://shop.example.ro/drum-unit/pd/DMCSZ4BBM/",
    );
    expect(c?.sku).toBe("DR2401");
    expect(c?.provenance.sku?.method).toMatch(
      /^label SKU \(markup's SKU DMCSZ4BBM is the page URL's id\)$/,
    );
  });

  // A markup SKU the page never prints gives way to the shown code (html-shown-sku.test.ts).
  test("markup's SKU that is not in the URL, and that the page prints, stays", () => {
    expect(
      extractProduct(
        page(`${shown}<p>Toner TBR-2401</p>`, markup("TBR-2401")),
        "https://shop.example.ro/drum-unit/pd/DMCSZ4BBM/",
      )?.sku,
    ).toBe("TBR-2401");
  });

  test.each([
    ["Kaubamärk", "Bosch", "brand"],
    ["Ražotājs", "CALVIN KLEIN", "brand"],
    ["Proizvajalec", "B&S", "brand"],
    ["Šifra", "0638", "sku"],
    ["Tootekood", "920O-32732", "sku"],
    ["品番", "ABC-1234", "sku"],
    ["Article number:", "VEI22G013-K11", "sku"],
  ])("a spec table row labelled %s", (label, value, field) => {
    const c = extractProduct(
      page(`${PRODUCT}<table><tr><td>${label}</td><td>${value}</td></tr></table>`),
      URL_,
    );
    expect(c?.[field as "brand" | "sku"]).toBe(value);
  });

  test("a classified ad's number is its reference; a display size under the same word is not", () => {
    const ad = (label: string, value: string) =>
      extractProduct(
        page(`${PRODUCT}<div class="lbl">${label}</div><strong>${value}</strong>`),
        URL_,
      )?.sku;
    expect(ad("Anzeige:", "278526196")).toBe("278526196");
    expect(ad("Ad ID:", "35985065")).toBe("35985065");
    expect(ad("Anzeige:", "15.6 Zoll")).toBeNull();
  });

  test("a value ending a sentence in a bullet list loses the full stop", () => {
    expect(
      extractProduct(page(`${PRODUCT}<ul><li>EAN: 6935364088101.</li></ul>`), URL_)?.gtin,
    ).toBe("6935364088101");
  });

  test("a label word left before the code without a colon is dropped; a model's name keeps its word", () => {
    expect(
      extractProduct(page(`${PRODUCT}<span class="product-sku">SKU MKI6IKW1N4</span>`), URL_)?.sku,
    ).toBe("MKI6IKW1N4");
    expect(
      extractProduct(
        page(`${PRODUCT}<table><tr><td>Model number</td><td>Model 3</td></tr></table>`),
        URL_,
      )?.mpn,
    ).toBe("Model 3");
  });

  test('"Item No." left in the value is dropped', () => {
    const html = page(
      `${PRODUCT}`,
      ld({ "@type": "Product", name: "Kettle", sku: "Item No. NI_AT3484-623" }),
    );
    expect(extractProduct(html, URL_)?.sku).toBe("NI_AT3484-623");
  });
});

describe("extractProduct: the brand without a brand field", () => {
  const state = (brand: string) =>
    `<script>window.__data = {"product":{"partNumber":"4667999","brand":${JSON.stringify(brand)},"price":34.99}};</script>`;

  test("the title's first words, when the page's scripts name them as the brand (spelt as the title has it)", () => {
    const c = extractProduct(
      page(
        `<h1>TP-Link Tapo C200 Pan/Tilt Camera</h1><div class="price">£34.99</div>${state("TP Link")}`,
      ),
      URL_,
    );
    expect(c?.brand).toBe("TP-Link");
    expect(c?.provenance.brand?.method).toBe("title's start named as brand by the page's scripts");
  });

  test("a script's brand that the title does not start with is no evidence (a related product's)", () => {
    expect(
      extractProduct(
        page(`<h1>Tapo C200 Pan/Tilt Camera</h1><div class="price">£34.99</div>${state("Belkin")}`),
        URL_,
      )?.brand,
    ).toBeNull();
  });

  test("a link to the brand's page just above the name", () => {
    const price = `<div class="price">€ 344,00</div>`;
    const brandOf = (above: string) =>
      extractProduct(page(`${above}<h1>BULL BAROQUE - Slim fit jeans</h1>${price}`), URL_)?.brand ??
      null;
    expect(
      brandOf(
        `<div><a href="https://shop.example.com/versace-jeans-couture/"><h3>Versace Jeans Couture</h3></a></div>`,
      ),
    ).toBe("Versace Jeans Couture");
    expect(brandOf(`<a href="/brands/4711">Diesel</a>`)).toBe("Diesel");
    // A category whose words are the title's, a breadcrumb, a link elsewhere: none is the brand.
    expect(brandOf(`<a href="/jeans/">Jeans</a>`)).toBeNull();
    expect(brandOf(`<ol class="breadcrumbs"><li><a href="/men/">Men</a></li></ol>`)).toBeNull();
    expect(brandOf(`<a href="/help/returns">Free returns</a>`)).toBeNull();
  });

  test('a classified ad\'s "make/manufacturer" line', () => {
    expect(
      extractProduct(
        page(
          `${PRODUCT}<p><span>condition: <b>good</b></span><br><span>make/manufacturer: <b>Indesit</b></span></p>`,
        ),
        URL_,
      )?.brand,
    ).toBe("Indesit");
  });

  test('a menu link reading "Brand" is not a label: the next menu entry is no brand', () => {
    const menu = `<div class="categorylist"><a href="/ch/700096">Brand</a></div><div class="categorylist"><a href="/ch/700336">Gift vouchers</a></div>`;
    expect(extractProduct(page(`${PRODUCT}${menu}`), URL_)?.brand).toBeNull();
  });
});

describe("extractProduct: values checked before they are kept", () => {
  const withGtin = (gtin: string): string =>
    page("", ld({ "@type": "Product", name: "Kettle", gtin13: gtin }));

  test.each([
    ["4006381333931", "4006381333931"],
    ["4006381333932", null],
    ["0000000000000", null],
    ["32429335302", "032429335302"],
    ["0-306-40615-2", "0306406152"],
  ])("GTIN %s is kept as %s (its check digit decides)", (gtin, expected) => {
    expect(extractProduct(withGtin(gtin), URL_)?.gtin).toBe(expected);
  });

  test("a brand that is a page title with the shop's name is no brand", () => {
    const html = page(
      "",
      ld({ "@type": "Product", name: "Pizza deal", brand: "Pizza deal (all shops) | Deals Site" }),
    );
    expect(extractProduct(html, URL_)?.brand).toBeNull();
  });

  test("Shopify's vendor line gives the brand", () => {
    expect(
      extractProduct(page(`${PRODUCT}<p class="product__vendor">Stelton</p>`), URL_)?.brand,
    ).toBe("Stelton");
  });

  test("a heading holding the name and the format: the part named as the title", () => {
    const html =
      page(`<h1 id="title"><span id="productTitle">The Whole Truth</span> <span id="productSubtitle">Kindle Edition</span></h1>
      <div class="price">$4.99</div>`);
    expect(extractProduct(html, URL_)?.title).toBe("The Whole Truth");
  });
});

describe("extractProduct: the main image without og:image or JSON-LD", () => {
  const title = `<h1>Lettan mirror 60 cm</h1><div class="price">£ 25.00</div>`;

  test("the shop's logo and icons first in the page are not the product", () => {
    const html =
      page(`<header><img src="/logo.svg" alt="Shop" width="300" height="300"><img src="/icons/cart.png"></header>
      ${title}<div class="product-gallery"><img src="/media/lettan-front.jpg"><img src="/media/lettan-side.jpg"></div>`);
    expect(extractProduct(html, URL_)?.images[0]).toBe(
      "https://shop.example.com/media/lettan-front.jpg",
    );
  });

  test("the gallery nearest the title, not a related products' carousel further down", () => {
    const html = page(`${title}<div class="gallery"><img src="/media/lettan.jpg"></div>
      <p>${"Details. ".repeat(20)}</p><section><h2>Related</h2><div class="carousel"><img src="/media/other.jpg"></div></section>`);
    expect(extractProduct(html, URL_)?.images[0]).toBe("https://shop.example.com/media/lettan.jpg");
  });

  test("an image whose alt text names the product wins over a nearer gallery", () => {
    const html =
      page(`${title}<div class="slider"><img src="/media/promo.jpg" alt="Winter sale"></div>
      <div><img src="/media/lettan-mirror.jpg" alt="Lettan mirror, 60 cm" width="600" height="600"></div>`);
    expect(extractProduct(html, URL_)?.images[0]).toBe(
      "https://shop.example.com/media/lettan-mirror.jpg",
    );
  });

  test("a spacer GIF waiting for a script is no image, though named the main one", () => {
    const html =
      page(`${title}<img id="zoom_main_img" style="display: none;" alt="" src="https://static.example.com/pics/s.gif">
      <img id="icImg" src="/media/lettan-mirror-l300.jpg" alt="Lettan-Mirror-60-cm">`);
    expect(extractProduct(html, URL_)?.images[0]).toBe(
      "https://shop.example.com/media/lettan-mirror-l300.jpg",
    );
  });

  test("a related product's thumbnail with a like alt text is not the product's picture", () => {
    const html =
      page(`${title}<ul class="recent"><li><img src="/thumbs/lettan-mirror-40.jpg" alt="Lettan mirror 40 cm"></li>
      <li><img src="/media/x.jpg" style="max-width:64px" alt="Lettan mirror 80 cm"></li></ul>
      <img src="/media/lettan-mirror-60.jpg" alt="Lettan mirror 60 cm">`);
    expect(extractProduct(html, URL_)?.images[0]).toBe(
      "https://shop.example.com/media/lettan-mirror-60.jpg",
    );
  });
});

describe("extractProduct: the title without the shop's name", () => {
  const og = (title: string, extra = ""): string =>
    page(
      "",
      `<meta property="og:type" content="product"><meta property="og:title" content="${title}">${extra}`,
    );

  test.each([
    ["Blue Shirt | Acme Store", "https://www.acme-store.co.uk/p/1", "Blue Shirt"],
    ["Acme: Blue Shirt", "https://acme.com/p/1", "Blue Shirt"],
    ["T-Shirt - Blue - Amazon.de", "https://www.amazon.de/dp/B000000001", "T-Shirt - Blue"],
    ["Blue Shirt | Free delivery", "https://www.acme.com/p/1", "Blue Shirt | Free delivery"],
  ])("%s on %s", (title, url, expected) => {
    expect(extractProduct(og(title), url)?.title).toBe(expected);
  });

  test("og:site_name names the shop when the host does not", () => {
    expect(
      extractProduct(
        og("Blue Shirt – Nordic Wear", `<meta property="og:site_name" content="Nordic Wear">`),
        "https://nw-shop.example/p/1",
      )?.title,
    ).toBe("Blue Shirt");
  });
});

describe("extractProduct: the heading as the shopper reads it", () => {
  const titleOf = (h1: string) =>
    extractProduct(page(`${h1}<div class="price">€ 39,99</div>`), URL_)?.title;

  test.each([
    [
      "words in separate blocks stay apart",
      `<h1><div class="title--big">MÖCKELBY</div><div><span>Table, oak</span><span>235x100 cm</span></div></h1>`,
      "MÖCKELBY Table, oak 235x100 cm",
    ],
    [
      "text for screen readers only is left out",
      `<h1 class="product-name">FLAT BOOTS<span class="offleft"> Details</span></h1>`,
      "FLAT BOOTS",
    ],
    [
      "hidden text is left out",
      `<h1>Steel Kettle <span aria-hidden="true">★</span><span style="display:none">SEO words</span></h1>`,
      "Steel Kettle",
    ],
    [
      "the brand's own element inside the heading is left out",
      `<h1 itemprop="name"><span class="PdpTitle--brand"><a href="/b/ultra">Ultra</a></span> Retro Console</h1>`,
      "Retro Console",
    ],
    [
      "a symbol next to a word stays attached",
      `<h1>Nike<sup>®</sup> Air Max</h1>`,
      "Nike® Air Max",
    ],
  ])("%s", (_name, h1, expected) => {
    expect(titleOf(h1)).toBe(expected);
  });
});

describe("extractProduct: markup not updated for a sale", () => {
  const markup = `<div itemscope itemtype="https://schema.org/Product"><meta itemprop="name" content="Dress">
    <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="219.99"><meta itemprop="priceCurrency" content="EUR"></div></div>`;

  test("markup's price shown struck through beside a lower current price: the shown price", () => {
    const html =
      page(`${markup}<h1>Dress</h1><div class="price-block"><span class="original-price">EUR219.99</span> -50%
      <span class="product-price">EUR110.00</span></div>`);
    const c = extractProduct(html, URL_);
    expect(c?.price).toEqual({ amount: "110.00", currency: "EUR" });
    expect(c?.provenance.price?.method).toMatch(/markup's 219.99 is shown as the old price/);
  });

  test("the same old price in a related product's tile changes nothing", () => {
    const html = page(`${markup}<h1>Dress</h1><div class="price">EUR219.99</div>
      <div class="product-tile"><p class="product-tile__price"><del>EUR219.99</del> <em>EUR99.00</em></p></div>`);
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "219.99", currency: "EUR" });
  });
});

describe("extractProduct: a heading that is not the product's", () => {
  const price = `<div class="price">€ 43,97</div>`;

  test("a banner heading sharing no word with the page's <title> gives way to a heading that does", () => {
    const html = page(
      `<h1>COVID-19 policies and precautions</h1><h1>Casio FX-991ES Calculator</h1>${price}`,
      "<title>Casio FX-991ES Calculator - Used Victoria</title>",
    );
    expect(extractProduct(html, "https://www.used-victoria.com/ad/1")?.title).toBe(
      "Casio FX-991ES Calculator",
    );
  });

  test("without such a heading, the page's <title> without the shop's name", () => {
    const html = page(`<h1>Sale</h1>${price}`, "<title>Sports shoes amx1 | VM Zona</title>");
    const c = extractProduct(html, "https://vmzona.com/p/amx1");
    expect(c?.title).toBe("Sports shoes amx1");
    expect(c?.provenance.title).toEqual({ source: "heuristic", method: "document title" });
  });
});

describe("extractProduct: a price whose cents stand apart", () => {
  test.each([
    [
      `<div class="price">$229<span class="right">99</span></div>`,
      "https://shop.example.ca/p/1",
      { amount: "229.99", currency: "CAD" },
    ],
    [
      `<p class="product-new-price">63<sup>07</sup> <span>Lei</span></p>`,
      "https://shop.example.ro/p/1",
      { amount: "63.07", currency: "RON" },
    ],
    [
      `<span class="price">1.299<sup>00</sup> €</span>`,
      URL_,
      { amount: "1299.00", currency: "EUR" },
    ],
    [
      `<span class="price">12,50 <small>€</small></span>`,
      URL_,
      { amount: "12.50", currency: "EUR" },
    ],
  ])("%s", (markup, url, expected) => {
    expect(extractProduct(page(`<h1>Steel Kettle 1.7 l</h1>${markup}`), url)?.price).toEqual(
      expected,
    );
  });
});

describe("extractProduct: a price in the text after the title", () => {
  test("is the product's own, not one inside a link to another product", () => {
    const tile = `<ul><li><a href="/dp/B08CXTKMHJ"><span>2,86 €</span></a></li></ul>`;
    expect(
      extractProduct(page(`<h1>Hair dye cream 80 g</h1><p>SKU: HD-80</p>${tile}`), URL_)?.price,
    ).toBeNull();
    expect(
      extractProduct(page(`<h1>Hair dye cream 80 g</h1><p><b>12,50 €</b></p>${tile}`), URL_)?.price,
    ).toEqual({ amount: "12.50", currency: "EUR" });
    // A link beside the price that leads elsewhere without a price of its own hides nothing.
    const beside = `<h1>Hair dye cream 80 g</h1><p>12,50 € <a href="https://pay.example/start">Pay later</a></p>${tile}`;
    expect(extractProduct(page(beside), URL_)?.price).toEqual({ amount: "12.50", currency: "EUR" });
  });
});
