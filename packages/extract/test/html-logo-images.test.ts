import { extractProduct } from "../src/html/index.js";

// Hand-written pages: markup naming the shop's logo or a placeholder as the product's image
// (issue 30, pattern 9).
const URL_ = "https://shop.example.com/p/trail-runner-2";
const GALLERY = "https://shop.example.com/media/catalog/trail-runner-2-side.jpg";

function page(head: string): string {
  return `<!doctype html><html><head><title>Trail Runner 2 | Northwind</title>${head}</head><body>
    <header><a href="/"><img src="/static/header-mark.svg" alt="Northwind"></a></header>
    <div class="product-gallery"><img src="${GALLERY}" alt="Side view"></div>
    <h1>Trail Runner 2</h1><div class="price">€ 89,99</div>
    <section class="related"><div class="carousel">
      <img src="https://shop.example.com/media/catalog/other-shoe.jpg" alt="Other shoe">
    </div></section>
  </body></html>`;
}

function og(image: string, alt?: string): string {
  return (
    `<meta property="og:type" content="product"><meta property="og:title" content="Trail Runner 2">` +
    `<meta property="og:image" content="${image}">` +
    (alt === undefined ? "" : `<meta property="og:image:alt" content="${alt}">`)
  );
}

function ld(image: unknown): string {
  const product = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Trail Runner 2",
    image,
    offers: { "@type": "Offer", price: "89.99", priceCurrency: "EUR" },
  };
  return `<script type="application/ld+json">${JSON.stringify(product)}</script>`;
}

function imageOf(html: string): string | undefined {
  return extractProduct(html, URL_)?.images[0];
}

describe("extractProduct: a logo or placeholder in markup is not the product's picture", () => {
  test("an og:image named as the logo gives way to the gallery image nearest the title", () => {
    expect(imageOf(page(og("https://shop.example.com/static/northwind-logo.png")))).toBe(GALLERY);
  });

  test("an og:image whose alt text says logo gives way to the gallery image", () => {
    const head = og("https://cdn.example.net/a/8812.png", "Northwind Outfitters logo");
    expect(imageOf(page(head))).toBe(GALLERY);
  });

  test("a JSON-LD placeholder or 'no image' picture gives way to the gallery image", () => {
    expect(imageOf(page(ld("https://shop.example.com/static/placeholder.jpg")))).toBe(GALLERY);
    expect(imageOf(page(ld("https://shop.example.com/img/no-image-available.png")))).toBe(GALLERY);
  });

  test("a sprite or icon in markup gives way to the next markup image, then the gallery", () => {
    const product = "https://shop.example.com/media/catalog/trail-runner-2-front.jpg";
    expect(imageOf(page(ld(["https://shop.example.com/static/icons/share.png", product])))).toBe(
      product,
    );
    expect(imageOf(page(og("https://shop.example.com/static/ui-sprite.png")))).toBe(GALLERY);
  });

  test("a product picture whose name only holds such a word inside another stays (guard)", () => {
    const picture = "https://shop.example.com/media/catalog/silicone-phone-case.jpg";
    expect(imageOf(page(og(picture)))).toBe(picture);
  });
});
