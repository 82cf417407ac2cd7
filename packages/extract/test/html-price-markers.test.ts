import { extractProduct } from "../src/html/index.js";

// Pattern 3 of issue 30: old-price markers are whole words of a class or id, and a price in a
// link to another page or an instalment never wins. Hand-written pages, no markup.
const URL_ = "https://shop.example.com/p/steel-kettle-447101";

function page(body: string): string {
  return `<!doctype html><html><head></head><body>${body}</body></html>`;
}

const TITLE = `<h1>Steel Kettle 1.7 l</h1>`;
// Another product's price further down the page: it wins only when the product's own is lost.
const BUNDLE = `<section><h2>Often bought together</h2><p>Tea set</p><div class="price">€ 59,00</div></section>`;
const price = (html: string) => extractProduct(page(html), URL_)?.price;

describe("extractProduct: old-price markers are whole words", () => {
  test.each([
    [
      "a price-holder wrapper",
      `<div class="price-holder"><span class="price">€ 39,99</span></div>`,
    ],
    ["a bold class", `<p class="price text-bold">€ 39,99</p>`],
    ["a boldPrice id", `<span id="boldPrice" class="amount">€ 39,99</span>`],
    [
      "a threshold-box wrapper",
      `<div class="threshold-box"><span class="price">€ 39,99</span></div>`,
    ],
  ])("%s is not an old price", (_name, block) => {
    expect(price(`${TITLE}${block}${BUNDLE}`)).toEqual({ amount: "39.99", currency: "EUR" });
  });

  test("a discount price is the current price", () => {
    const block = `<span class="price price--discount">€ 29,99</span> <span class="price price--old">€ 39,99</span>`;
    expect(price(`${TITLE}${block}${BUNDLE}`)).toEqual({ amount: "29.99", currency: "EUR" });
  });

  test.each([
    ["oldPrice", `<span class="price oldPrice">€ 49,99</span>`],
    ["price--was", `<span class="price price--was">€ 49,99</span>`],
    ["wasprice", `<span class="wasprice">€ 49,99</span>`],
    ["list-price", `<span class="list-price">€ 49,99</span>`],
    ["price_strikethrough", `<span class="price_strikethrough">€ 49,99</span>`],
    ["unitPrice", `<span class="unitPrice">€ 49,99</span>`],
  ])("a marker written %s still marks a price that is not the current one", (_name, old) => {
    expect(price(`${TITLE}${old}<span class="price">€ 39,99</span>`)).toEqual({
      amount: "39.99",
      currency: "EUR",
    });
  });
});

describe("extractProduct: links and instalments", () => {
  test("a price inside a link to another page never wins", () => {
    const tile = `<a href="/p/kettle-lid-220931"><span class="price">€ 19,99</span></a>`;
    expect(price(`${TITLE}${tile}<div class="price">€ 39,99</div>`)).toEqual({
      amount: "39.99",
      currency: "EUR",
    });
  });

  test("a link carrying the page's own product id is not another page", () => {
    const offers = `<a href="/p/steel-kettle-447101/offers"><span class="price">€ 39,99</span></a>`;
    expect(price(`${TITLE}${offers}${BUNDLE}`)).toEqual({ amount: "39.99", currency: "EUR" });
  });

  test.each([
    ["12 x € 33,25"],
    ["€ 33,25/month"],
    ["€ 33,25 al mese"],
    ["€ 33,25 x 12"],
    ["€ 33,25 / mes"],
  ])("an instalment (%s) never wins", (instalment) => {
    const html = `${TITLE}<p class="price-rate">${instalment}</p><div class="price">€ 399,00</div>`;
    expect(price(html)).toEqual({ amount: "399.00", currency: "EUR" });
  });
});

describe("extractProduct: another product's tile", () => {
  test.each([
    ["a tile", `<ul><li class="tile"><span class="price price--sale">€ 19,99</span></li></ul>`],
    ["a teaser", `<div class="teaser"><span class="price now">€ 19,99</span></div>`],
    ["a tile's own price class", `<p class="productTile-price special">€ 19,99</p>`],
  ])("a sale price in %s is not the product's", (_name, tile) => {
    expect(price(`${TITLE}<div class="price">€ 49,99</div>${tile}`)).toEqual({
      amount: "49.99",
      currency: "EUR",
    });
  });
});
