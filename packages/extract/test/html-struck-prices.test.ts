import { extractProduct } from "../src/html/index.js";

// Pattern 4 of issue 30: a struck-through old price inside the element holding the price, and
// two prices side by side. Hand-written pages, no markup.
const URL_ = "https://shop.example.com/p/kettle-4471";

function page(body: string): string {
  return `<!doctype html><html><head></head><body>${body}</body></html>`;
}

const TITLE = `<h1>Steel Kettle 1.7 l</h1>`;
const SALE = { amount: "39.99", currency: "EUR" };

describe("extractProduct: struck prices inside a price container", () => {
  test.each([
    ["a <del> before the price", `<div class="price"><del>€ 49,99</del> € 39,99</div>`],
    ["an <s> after the price", `<div class="price">€ 39,99 <s>€ 49,99</s></div>`],
    [
      "a strike-named class on a child",
      `<div class="price"><span class="price-strikethrough">€ 49,99</span><span>€ 39,99</span></div>`,
    ],
    [
      "a line-through class on a child",
      `<div class="price box"><div class="original line-through"> € 49,99 </div><div> € 39,99 </div></div>`,
    ],
    [
      "a line-through style on a child",
      `<p class="price"><span style="text-decoration: line-through">€ 49,99</span> <span>€ 39,99</span></p>`,
    ],
  ])("%s is left out", (_name, block) => {
    expect(extractProduct(page(`${TITLE}${block}`), URL_)?.price).toEqual(SALE);
  });

  test("a price container holding only a struck price is no price", () => {
    const html = page(
      `${TITLE}<div class="price"><del>€ 49,99</del></div><div class="price">€ 39,99</div>`,
    );
    expect(extractProduct(html, URL_)?.price).toEqual(SALE);
  });
});

describe("extractProduct: two adjacent prices", () => {
  test.each([
    [
      "marked sale",
      `<div class="price"><span>€ 49,99</span> <span class="sale">€ 39,99</span></div>`,
    ],
    [
      "marked now",
      `<div class="price"><span class="was">€ 49,99</span> <span class="now">€ 39,99</span></div>`,
    ],
    [
      "marked current, before the other",
      `<div class="prices"><span class="price-current">€ 39,99</span> <span class="price-regular">€ 49,99</span></div>`,
    ],
    ["said in words", `<div class="price">Was € 49,99 Now € 39,99</div>`],
  ])("the one %s is the current one", (_name, block) => {
    expect(extractProduct(page(`${TITLE}${block}`), URL_)?.price).toEqual(SALE);
  });

  test("of two sibling price elements, one struck by its style, the other one counts", () => {
    const html = page(
      `${TITLE}<div><span class="price" style="text-decoration:line-through">€ 49,99</span> <span class="price">€ 39,99</span></div>`,
    );
    expect(extractProduct(html, URL_)?.price).toEqual(SALE);
  });
});
