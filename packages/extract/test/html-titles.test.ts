import { extractProduct } from "../src/html/index.js";

// Hand-written pages: which text is the product's name (issue 30, pattern 8).
const URL_ = "https://shop.example.com/p/trail-runner-2";

function page(body: string, head = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

const OFFER = { "@type": "Offer", price: "89.99", priceCurrency: "EUR" };
const PRICE = `<div class="price">€ 89,99</div>`;

function titleOf(html: string): string | null | undefined {
  return extractProduct(html, URL_)?.title;
}

describe("extractProduct: the product's title", () => {
  test("a microdata name is its visible text, without hidden spans or nested properties", () => {
    const html = page(`
      <div itemscope itemtype="https://schema.org/Product">
        <h1 itemprop="name">Trail Runner 2<span class="visually-hidden"> (opens a size guide)</span>
          <small itemprop="sku">TR-2-BLK</small></h1>
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          <meta itemprop="price" content="89.99"><meta itemprop="priceCurrency" content="EUR">
        </div>
      </div>`);
    expect(titleOf(html)).toBe("Trail Runner 2");
  });

  test("a URL is never a name: markup naming a link gives way to the text", () => {
    const linked = page(`
      <div itemscope itemtype="https://schema.org/Product">
        <a itemprop="name" href="https://shop.example.com/p/trail-runner-2">Trail Runner 2</a>
        <meta itemprop="price" content="89.99"><meta itemprop="priceCurrency" content="EUR">
      </div>`);
    expect(titleOf(linked)).toBe("Trail Runner 2");
    const named = page(
      `<h1>Trail Runner 2</h1>`,
      ld({
        "@context": "https://schema.org",
        "@type": "Product",
        name: "https://shop.example.com/p/trail-runner-2",
        offers: OFFER,
      }),
    );
    expect(titleOf(named)).toBe("Trail Runner 2");
  });

  test("og:title loses to the h1 when it shares no word with it or carries a price", () => {
    const unrelated = page(
      `<h1>Trail Runner 2</h1>${PRICE}`,
      `<meta property="og:type" content="product"><meta property="og:title" content="Summer sale: everything must go">`,
    );
    expect(titleOf(unrelated)).toBe("Trail Runner 2");
    const priced = page(
      `<h1>Trail Runner 2 running shoe</h1>${PRICE}`,
      `<meta property="og:type" content="product"><meta property="og:title" content="Buy Trail Runner 2 for only €89.99">`,
    );
    expect(titleOf(priced)).toBe("Trail Runner 2 running shoe");
  });

  test("a price inside the h1 is left out", () => {
    expect(titleOf(page(`<h1>Trail Runner 2 <span class="price">€89.99</span></h1>`))).toBe(
      "Trail Runner 2",
    );
    expect(titleOf(page(`<h1>Trail Runner 2 – 89,99 €</h1>${PRICE}`))).toBe("Trail Runner 2");
    // Guard: a price the name reads on from is part of it.
    expect(titleOf(page(`<h1>$100 Gift Card</h1>${PRICE}`))).toBe("$100 Gift Card");
  });

  test("an h1 inside a link or a logo is not the title: the heading the <title> names is", () => {
    const head = `<title>Trail Runner 2 | Northwind Outfitters</title>`;
    const inLink = page(
      `<header><a href="/"><h1>Northwind Outfitters</h1></a></header>
       <h2>Free delivery over €50</h2><main><h2>Trail Runner 2</h2>${PRICE}</main>`,
      head,
    );
    expect(titleOf(inLink)).toBe("Trail Runner 2");
    const logo = page(
      `<header><div class="site-logo"><h1>Northwind Outfitters</h1></div></header>
       <main><h2>Trail Runner 2</h2>${PRICE}</main>`,
      head,
    );
    expect(titleOf(logo)).toBe("Trail Runner 2");
  });
});
