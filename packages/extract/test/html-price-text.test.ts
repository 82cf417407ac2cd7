import { extractProduct } from "../src/html/index.js";

// Pattern 1 of issue 30: a price element's text as the shopper reads it, and where a price
// block counts as the product's own. Hand-written pages, no markup.
const URL_ = "https://shop.example.com/p/kettle-4471";

function page(body: string): string {
  return `<!doctype html><html><head></head><body>${body}</body></html>`;
}

const TITLE = `<h1>Steel Kettle 1.7 l</h1>`;
// A shorter price text after the title that is not the product's price.
const DELIVERY = `<p>Free delivery over € 50</p>`;
const BY_CLASS = { source: "heuristic", method: "element with a price class" };

describe("extractProduct: price text and whitespace", () => {
  test("a price element followed by a long run of indentation is still read", () => {
    const indent = `\n${" ".repeat(40)}`.repeat(12);
    const html = page(
      `${TITLE}${DELIVERY}<div class="price">${indent}<span>€ 39,99</span>${indent}</div>`,
    );
    const c = extractProduct(html, URL_);
    expect(c?.price).toEqual({ amount: "39.99", currency: "EUR" });
    expect(c?.provenance.price).toEqual(BY_CLASS);
  });

  test("text in a noscript inside the price element does not count", () => {
    const fallback = `<noscript>${"Please enable JavaScript to see our offers. ".repeat(6)}</noscript>`;
    const html = page(
      `${TITLE}${DELIVERY}<div class="price"><span>€ 39,99</span>${fallback}</div>`,
    );
    const c = extractProduct(html, URL_);
    expect(c?.price).toEqual({ amount: "39.99", currency: "EUR" });
    expect(c?.provenance.price).toEqual(BY_CLASS);
  });

  test("script text inside the price element does not count", () => {
    const script = `<script>${"window.dataLayer.push({ event: 'view' });".repeat(8)}</script>`;
    const html = page(`${TITLE}${DELIVERY}<div class="price"><span>€ 39,99</span>${script}</div>`);
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "39.99", currency: "EUR" });
  });

  test("a text longer than the bound once its whitespace is collapsed is not a price", () => {
    const words = "This kettle costs € 39,99 and boils a full jug in under four minutes flat.";
    const html = page(`${TITLE}<div class="price">${words}</div><div class="price">€ 41,00</div>`);
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "41.00", currency: "EUR" });
  });
});

describe("extractProduct: a price block in a header or aside", () => {
  test("a header inside <main> holding the title and price is the product's block", () => {
    const html = page(
      `<header class="site"><a href="/">Shop</a></header><main><header class="product-head">${TITLE}<div class="price">€ 39,99</div></header></main>`,
    );
    const c = extractProduct(html, URL_);
    expect(c?.price).toEqual({ amount: "39.99", currency: "EUR" });
    expect(c?.provenance.price).toEqual(BY_CLASS);
  });

  test("an aside holding the title is the product's block, wherever it sits", () => {
    const html = page(
      `<div class="layout"><aside class="summary">${TITLE}<p class="price">€ 39,99</p></aside></div>`,
    );
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "39.99", currency: "EUR" });
  });

  test("an aside inside <main> beside the title holds the product's price", () => {
    const html = page(
      `<main>${TITLE}<aside class="buy-box"><p class="price">€ 39,99</p></aside></main>`,
    );
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "39.99", currency: "EUR" });
  });

  test("the site's header outside <main> is still chrome", () => {
    const html = page(
      `<header><div class="price">Gift cards from € 10,00</div></header><main>${TITLE}<div class="price">€ 39,99</div></main>`,
    );
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "39.99", currency: "EUR" });
    const chromeOnly = page(`<header><div class="price">€ 12,00</div></header><div>${TITLE}</div>`);
    expect(extractProduct(chromeOnly, URL_)?.price ?? null).toBeNull();
  });
});

describe("extractProduct: the page's country for a shared sign", () => {
  test("a lang with a script subtag still names the region", () => {
    const html = `<!doctype html><html lang="zh-Hant-TW"><head></head><body>${TITLE}<div class="price">$960</div></body></html>`;
    expect(extractProduct(html, "https://shop.example.com/p/1")?.price).toEqual({
      amount: "960.00",
      currency: "TWD",
    });
  });
});
