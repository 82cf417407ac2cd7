import { extractProduct } from "../src/html/index.js";

// Pattern 5 of issue 30: markup stating several prices for the product, and OpenGraph's bare
// og:price tags. Hand-written pages.
const URL_ = "https://shop.example.com/p/steel-kettle-447101";

function page(body: string, head = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function ld(offers: unknown): string {
  const product = { "@context": "https://schema.org", "@type": "Product", name: "Kettle", offers };
  return `<script type="application/ld+json">${JSON.stringify(product)}</script>`;
}

const offer = (price: string, availability = "https://schema.org/InStock") => ({
  "@type": "Offer",
  price,
  priceCurrency: "EUR",
  availability,
});
const TITLE = `<h1>Steel Kettle 1.7 l</h1>`;

describe("extractProduct: several markup offers", () => {
  test("the offer whose price the page shows wins", () => {
    const html = page(
      `${TITLE}<div class="price">€ 39,00</div>`,
      ld([offer("49.00"), offer("39.00")]),
    );
    const c = extractProduct(html, URL_);
    expect(c?.price).toEqual({ amount: "39.00", currency: "EUR" });
    expect(c?.provenance.price?.source).toBe("json-ld");
    expect(c?.provenance.price?.method).toMatch(/the price the page shows/);
  });

  test("JSON-LD and OpenGraph disagreeing: the one the page shows wins", () => {
    const head =
      ld({ "@type": "Offer", price: 150, priceCurrency: "USD" }) +
      `<meta property="product:price:amount" content="200"><meta property="product:price:currency" content="USD">`;
    const body = `${TITLE}<div class="bidding"><span class="price">$200</span> <span>3 bids</span></div><p>Starting price $150</p>`;
    const c = extractProduct(page(body, head), URL_);
    expect(c?.price).toEqual({ amount: "200.00", currency: "USD" });
    expect(c?.provenance.price?.source).toBe("opengraph");
  });

  test("offers the page shows none of: the first in stock, as before", () => {
    const offers = [
      offer("59.00", "https://schema.org/OutOfStock"),
      offer("49.00"),
      offer("39.00"),
    ];
    const html = page(`${TITLE}<div class="price">€ 45,00</div>`, ld(offers));
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "49.00", currency: "EUR" });
  });

  test("one markup price is kept whatever else the page shows", () => {
    const html = page(`${TITLE}<div class="price">€ 45,00</div>`, ld(offer("49.00")));
    expect(extractProduct(html, URL_)?.price).toEqual({ amount: "49.00", currency: "EUR" });
  });
});

describe("extractProduct: OpenGraph price tags", () => {
  test.each([
    ["og:", "og:price:amount", "og:price:currency"],
    ["product:", "product:price:amount", "product:price:currency"],
    ["mixed", "product:price:amount", "og:price:currency"],
  ])("%s amount and currency are read", (_name, amountKey, currencyKey) => {
    const head = `<meta property="og:type" content="website"><meta property="${amountKey}" content="39.99"><meta property="${currencyKey}" content="EUR">`;
    const c = extractProduct(page(TITLE, head), URL_);
    expect(c?.price).toEqual({ amount: "39.99", currency: "EUR" });
    expect(c?.provenance.price).toEqual({ source: "opengraph", method: amountKey });
  });

  test("og:price:amount and product:price:amount disagreeing: the shown one wins", () => {
    const head = `<meta property="product:price:amount" content="49.99"><meta property="og:price:amount" content="39.99"><meta property="og:price:currency" content="EUR">`;
    const c = extractProduct(page(`${TITLE}<p class="price">39,99 €</p>`, head), URL_);
    expect(c?.price).toEqual({ amount: "39.99", currency: "EUR" });
  });
});

describe("extractProduct: a markup price in exponent form", () => {
  test.each([
    ["1.5e2", "150.00"],
    ["125e-2", "1.25"],
    [1e3, "1000.00"],
  ])("%s is that number, not 1", (price, amount) => {
    const c = extractProduct(page(TITLE, ld(offer(String(price)))), URL_);
    expect(c?.price).toEqual({ amount, currency: "EUR" });
  });

  test("an exponent no price has (1e300) is no price", () => {
    const c = extractProduct(page(TITLE, ld(offer(String(1e300)))), URL_);
    expect(c?.price ?? null).toBeNull();
  });
});
