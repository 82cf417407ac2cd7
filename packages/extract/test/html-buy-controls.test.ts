import { extractProduct } from "../src/html/index.js";

// Issue 30, pattern 6: the page plainly offers the product through a buy control. Hand-written
// pages: a title, a price, then the control under test.
const URL_ = "https://shop.example.com/p/lamp-2210";

function page(body: string, head = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

const PRODUCT = `<h1>Desk Lamp Arc</h1><div class="price">€ 49,00</div>`;

const availability = (body: string, head = ""): string | null | undefined =>
  extractProduct(page(body, head), URL_)?.availability;

describe("buy controls: a class or id naming the action, whatever the words", () => {
  test.each([
    ["class add-to-cart", `<button class="btn add-to-cart">Choose</button>`],
    ["class addtocart in camel case", `<a class="product-AddToCart-btn" href="/cart/">Go</a>`],
    ["id add_to_cart", `<button id="add_to_cart" type="submit">→</button>`],
    ["class btn-cart", `<button class="btn-cart">Continue</button>`],
    ["class buy-now", `<button class="buy-now">Go</button>`],
    ["class add-product", `<button class="js-add-product">OK</button>`],
    ["class product-form__submit", `<button class="product-form__submit">OK</button>`],
    [
      "a wrapper named for buying around a script link",
      `<div class="buyBtn"><a href="javascript:go('x1')">Free delivery</a></div>`,
    ],
  ])("%s", (_name, control) => {
    const c = extractProduct(page(`${PRODUCT}${control}`), URL_);
    expect(c?.availability).toBe("InStock");
    expect(c?.provenance.availability).toEqual({ source: "heuristic", method: "buy button" });
  });

  test('names are matched as whole words: "buyer-guide" and "add-to-wishlist" are not buying', () => {
    expect(
      availability(`${PRODUCT}<button class="buyer-guide">Read the guide</button>`),
    ).toBeNull();
    expect(availability(`${PRODUCT}<button class="add-to-wishlist">Save</button>`)).toBeNull();
  });

  test("a named control that is disabled, or named sold out, does not offer the product", () => {
    expect(
      availability(`${PRODUCT}<button class="add-to-cart" disabled>Choose</button>`),
    ).toBeNull();
    expect(
      availability(`${PRODUCT}<button class="add-to-cart" aria-disabled="true">Choose</button>`),
    ).toBeNull();
    expect(
      availability(`${PRODUCT}<button class="add-to-cart btn--sold-out">Add to cart</button>`),
    ).toBeNull();
  });

  test("a header mini-cart named like a cart button does not count", () => {
    expect(
      availability(`<header><a class="btn-cart" href="/cart">Cart (0)</a></header>${PRODUCT}`),
    ).toBeNull();
  });
});

describe("buy controls: a buy verb followed by an object or a price", () => {
  test.each([
    ["Buy MP3 Album $9.49"],
    ["Comprar Entrada"],
    ["Add to cart – €49,00"],
    ["Kup bilet"],
  ])("%s", (words) => {
    expect(availability(`${PRODUCT}<button>${words}</button>`)).toBe("InStock");
  });

  test('"Add to wishlist" and "Buying guide" are no buy controls', () => {
    expect(availability(`${PRODUCT}<button>Add to wishlist</button>`)).toBeNull();
    expect(availability(`${PRODUCT}<button>Buying guide</button>`)).toBeNull();
  });
});

describe("buy controls: buy words in more languages", () => {
  test.each([
    ["Slovak", "Do košíka"],
    ["Croatian", "Kupi"],
    ["Croatian, add to cart", "Dodaj u košaricu"],
    ["Serbian", "Dodaj u korpu"],
    ["Romanian without diacritics", "Adauga in Cos"],
    ["Lithuanian", "Pirkti"],
    ["Latvian", "Pirkt"],
    ["Estonian", "Lisa korvi"],
    ["Bulgarian", "Добави в количката"],
    ["Greek", "Αγορά"],
    ["Arabic", "أضف إلى حقيبة التسوق"],
    ["Hebrew", "הוסף לסל"],
    ["Thai", "หยิบใส่ตะกร้า"],
    ["Vietnamese", "Thêm vào giỏ hàng"],
    ["Indonesian", "Tambah ke Keranjang"],
    ["Portuguese", "Adicionar à sacola"],
    ["Spanish", "Añadir a la bolsa"],
    ["Chinese", "馬上購買"],
    ["Danish", "Læg i indkøbskurv"],
    ["Swedish", "Lägg i kundkorgen"],
  ])("%s: %s", (_language, words) => {
    expect(availability(`${PRODUCT}<button type="submit">${words}</button>`)).toBe("InStock");
  });
});

describe("buy controls: an image used as the button", () => {
  test.each([
    [
      "an image input with buy words as its alt",
      `<input type="image" src="/i/b.gif" alt="Buy now">`,
    ],
    [
      "a link holding an image whose alt says buy",
      `<a href="javascript:;" onclick="add(3)"><img src="/i/x.png" alt="In den Warenkorb"></a>`,
    ],
    [
      "a button holding an image named for buying",
      `<button type="submit"><img src="/img/btn_add_to_cart.png" alt=""></button>`,
    ],
  ])("%s", (_name, control) => {
    expect(availability(`${PRODUCT}${control}`)).toBe("InStock");
  });

  test("an image button reading sold out does not offer it", () => {
    expect(availability(`${PRODUCT}<input type="image" src="/i/s.gif" alt="Sold out">`)).toBe(
      "OutOfStock",
    );
  });
});

describe("buy controls: contact phrases in the plural (classified and comparison pages)", () => {
  test.each([
    ["Contact sellers"],
    ["Contact the dealers"],
    ["Show phone numbers"],
    ["Chat with seller"],
    ["Contacter les vendeurs"],
  ])("%s", (words) => {
    const c = extractProduct(page(`${PRODUCT}<button>${words}</button>`), URL_);
    expect(c?.availability).toBe("InStock");
    expect(c?.provenance.availability?.method).toBe("contact button");
  });
});

describe("buy controls: an enabled buy control right after the title outranks markup", () => {
  const markup = (availabilityUrl: string): string =>
    ld({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Desk Lamp Arc",
      offers: {
        "@type": "Offer",
        price: "49.00",
        priceCurrency: "EUR",
        availability: availabilityUrl,
      },
    });

  test("markup OutOfStock, an enabled add-to-cart button after the title: InStock", () => {
    const c = extractProduct(
      page(
        `${PRODUCT}<button type="submit">Add to cart</button>`,
        markup("https://schema.org/OutOfStock"),
      ),
      URL_,
    );
    expect(c?.availability).toBe("InStock");
    expect(c?.provenance.availability?.source).toBe("heuristic");
  });

  test("a disabled button, or one only in a related product's tile far below, leaves markup", () => {
    const out = markup("https://schema.org/OutOfStock");
    expect(availability(`${PRODUCT}<button disabled>Add to cart</button>`, out)).toBe("OutOfStock");
    const filler = "<p>Details of the lamp.</p>".repeat(400);
    expect(
      availability(
        `${PRODUCT}${filler}<section><h2>Related</h2><button>Add to cart</button></section>`,
        out,
      ),
    ).toBe("OutOfStock");
    expect(availability(`${PRODUCT}<button>Sold out</button>`, out)).toBe("OutOfStock");
  });
});

describe("buy controls: what a named control's neighbours do not make it", () => {
  test("a wish-list button in a buy-named wrapper, then related products' tiles: markup stands", () => {
    const out = ld({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Desk Lamp Arc",
      offers: {
        "@type": "Offer",
        price: "49.00",
        priceCurrency: "EUR",
        availability: "OutOfStock",
      },
    });
    const body = `${PRODUCT}<div class="buy-module__buttons"><button class="btn">Save to wish list</button></div>
      <section><h2>Others also viewed</h2><div class="tile"><button aria-label="Add to shopping bag"></button></div></section>`;
    expect(availability(body, out)).toBe("OutOfStock");
  });

  test("a disabled buy button is the product's: a notify-me button after it does not speak", () => {
    expect(
      availability(`${PRODUCT}<button class="add-to-cart" disabled>Comprar</button>
        <button class="notify">Avise-me quando chegar</button>`),
    ).toBeNull();
  });
});

describe("a classified ad's status in markup", () => {
  test.each([
    ["NOT SOLD", "InStock"],
    ["Unsold", "InStock"],
    ["Sold", "OutOfStock"],
  ])("itemprop=availability reading %s", (status, expected) => {
    const html = page(`<div itemscope itemtype="https://schema.org/Product">
      <h1 itemprop="name">Desk Lamp Arc</h1>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
        <span itemprop="price" content="49.00">49</span><meta itemprop="priceCurrency" content="EUR">
        <h4>Status</h4><span itemprop="availability">${status}</span>
      </div></div>`);
    expect(extractProduct(html, URL_)?.availability).toBe(expected);
  });
});
