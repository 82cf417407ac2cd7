import { extractProduct } from "../src/html/index.js";

// A brand the page labels for the shopper beats a markup brand the page never prints.

const URL_ = "https://market.example.com/product/cheese-slicer.html";

function page(brand: string, body: string): string {
  const ld = JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Handheld Cheese Slicer",
    sku: "CS-32",
    brand: { "@type": "Brand", name: brand },
    offers: { "@type": "Offer", price: "11.99", priceCurrency: "USD" },
  });
  return `<!doctype html><html><head><title>Handheld Cheese Slicer on Marketplace.example</title>
    <script type="application/ld+json">${ld}</script></head><body>${body}</body></html>`;
}

const SPECS = `<h1>Handheld Cheese Slicer</h1><p>CS-32</p>
  <dl><dt><span>Brand Name:</span></dt><dd><div>KELVANO</div></dd>
  <dt><span>Model Number:</span></dt><dd><div>KV-32</div></dd></dl>
  <footer>Marketplace.example, the Marketplace of suppliers</footer>`;

describe("brand: shown beats hidden", () => {
  test("a labelled brand beats markup's brand that the page prints only inside another word", () => {
    const c = extractProduct(page("Market", SPECS), URL_);
    expect(c?.brand).toBe("KELVANO");
    expect(c?.provenance.brand?.method).toMatch(/^label brand/);
  });

  test("markup's brand stays when the page prints it as a word", () => {
    const c = extractProduct(page("Marketplace", SPECS), URL_);
    expect(c?.brand).toBe("Marketplace");
  });

  test("markup's brand stays when the page labels none", () => {
    const c = extractProduct(page("Kelvano", "<h1>Handheld Cheese Slicer</h1><p>CS-32</p>"), URL_);
    expect(c?.brand).toBe("Kelvano");
  });
});
