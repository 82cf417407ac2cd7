import { extractProduct } from "../src/html/index.js";

// The SKU the shopper is shown beats one the page keeps hidden (a form field, markup it never
// prints), and an id in the page's own address is the address's, not the product's reference.

const URL_ = "https://shop.example.com/garden/folding-chair";

function page(head: string, body: string): string {
  return `<!doctype html><html><head><title>Folding Chair | Shop</title>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

function product(sku: string): string {
  return ld({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Folding Chair",
    sku,
    offers: { "@type": "Offer", price: "49.00", priceCurrency: "EUR" },
  });
}

describe("a labelled code beats a hidden SKU", () => {
  test("markup's SKU the page never prints gives way to the labelled product code", () => {
    const html = page(
      product("FC2041X-1"),
      `<h1>Folding Chair</h1><p class="price">€49.00</p>
       <div class="details"><span>Product code:</span> <span>FC2041X</span></div>`,
    );
    const c = extractProduct(html, URL_);
    expect(c?.sku).toBe("FC2041X");
    expect(c?.provenance.sku?.source).toBe("heuristic");
  });

  test("markup's SKU the page prints as text stays, whatever else is labelled", () => {
    const html = page(
      product("FC-2041"),
      `<h1>Folding Chair</h1><p>Item FC-2041</p>
       <table><tr><th>Product code</th><td>77310</td></tr></table>`,
    );
    expect(extractProduct(html, URL_)?.sku).toBe("FC-2041");
  });

  test("a code printed in an element named as the product reference beats markup's unprinted SKU", () => {
    const html = page(
      product("88120455-100-10"),
      `<h1>Folding Chair</h1><p class="product-reference">4410/221</p>`,
    );
    expect(extractProduct(html, URL_)?.sku).toBe("4410/221");
  });

  test("a labelled order number beats the cart form's hidden SKU field", () => {
    const html = page(
      "",
      `<h1>Folding Chair</h1><p class="price">€49.00</p>
       <form action="/cart"><input type="hidden" name="sku" value="998877"><button>Add to cart</button></form>
       <ul><li>Order number: 44-1020</li></ul>`,
    );
    const c = extractProduct(html, URL_);
    expect(c?.sku).toBe("44-1020");
    expect(c?.provenance.sku?.method).toBe("label SKU");
  });

  test("the form's SKU stays where nothing shown contradicts it", () => {
    const html = page(
      "",
      `<h1>Folding Chair</h1><p class="price">€49.00</p>
       <form action="/cart"><input type="hidden" name="sku" value="998877"><button>Add to cart</button></form>`,
    );
    expect(extractProduct(html, URL_)?.sku).toBe("998877");
  });

  test("the form's SKU stays where the page shows it too, beside another labelled code", () => {
    const html = page(
      "",
      `<h1>Folding Chair</h1><p class="price">€49.00</p>
       <form action="/cart"><input type="hidden" name="sku" value="998877"><button>Add to cart</button></form>
       <table><tr><th>Reference</th><td>QX-12</td></tr><tr><th>Item number</th><td>998877</td></tr></table>`,
    );
    expect(extractProduct(html, URL_)?.sku).toBe("998877");
  });
});

describe("labels the shopper reads", () => {
  test('"Bestellnummer" is a SKU label', () => {
    const html = page(
      "",
      `<h1>Klappstuhl</h1><p class="price">49,00 €</p>
       <dl><dt>Bestellnummer</dt><dd>301-7745</dd></dl>`,
    );
    expect(extractProduct(html, URL_)?.sku).toBe("301-7745");
  });

  test('"Product Code - N": a dash between label and value', () => {
    const html = page(
      "",
      `<h1>Folding Chair</h1><p class="price">£49.00</p><p>Product Code - 55012</p>`,
    );
    expect(extractProduct(html, URL_)?.sku).toBe("55012");
  });

  test("a code followed by prose keeps the code", () => {
    const html = page(
      "",
      `<h1>Folding Chair</h1><p class="price">£49.00</p>
       <p><b>Product code:</b> 55012 – usually dispatched within two working days, from our own warehouse.</p>`,
    );
    expect(extractProduct(html, URL_)?.sku).toBe("55012");
  });
});

describe("an id in the page's address", () => {
  test("markup's SKU that is the id in the URL's slug gives way to the labelled code", () => {
    const html = page(
      product("10134622"),
      `<h1>Folding Chair</h1><span class="pid">10134622</span>
       <table><tr><th>Product code</th><td>FC-2041</td></tr></table>`,
    );
    const c = extractProduct(
      html,
      "https://shop.example.com/garden/folding-chair-10134622-pdt.html",
    );
    expect(c?.sku).toBe("FC-2041");
  });
});
