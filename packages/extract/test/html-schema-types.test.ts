import { extractProduct, readPage } from "../src/html/index.js";

// schema.org type names compared as schema.org consumers compare them: any case, with or without
// the vocabulary's prefix, http or https, with or without a trailing slash.

const URL_ = "https://shop.example.com/p/garden-chair";

function page(head: string, body = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

describe("schema.org types in JSON-LD, compared case-insensitively", () => {
  test('"@type": "product" with a lower-case "offer" keeps its offer, SKU and availability', () => {
    const html = page(
      ld({
        "@context": "https://schema.org",
        "@type": "product",
        name: "Folding Garden Chair",
        sku: "GC-204",
        brand: { "@type": "brand", name: "Terrace" },
        offers: {
          "@type": "offer",
          price: "49.00",
          priceCurrency: "EUR",
          availability: "https://schema.org/InStock",
        },
      }),
    );
    const c = extractProduct(html, URL_);
    expect(c?.title).toBe("Folding Garden Chair");
    expect(c?.sku).toBe("GC-204");
    expect(c?.brand).toBe("Terrace");
    expect(c?.price).toEqual({ amount: "49.00", currency: "EUR" });
    expect(c?.availability).toBe("InStock");
    expect(c?.provenance.sku?.source).toBe("json-ld");
  });

  test("a PRODUCTGROUP with prefixed types and a lower-case aggregateoffer", () => {
    const html = page(
      ld({
        "@context": "https://schema.org",
        "@graph": [
          { "@type": "webpage", mainEntity: { "@id": "#group" } },
          {
            "@type": "schema:PRODUCTGROUP",
            "@id": "#group",
            name: "Folding Garden Chair",
            productGroupID: "GC",
            hasVariant: [
              {
                "@type": "https://schema.org/product/",
                name: "Folding Garden Chair, green",
                sku: "GC-204-G",
                color: "green",
                offers: { "@type": "Offer", price: "49.00", priceCurrency: "EUR" },
              },
              {
                "@type": "http://SCHEMA.ORG/Product",
                name: "Folding Garden Chair, grey",
                sku: "GC-204-Y",
                color: "grey",
                offers: { "@type": "Offer", price: "52.00", priceCurrency: "EUR" },
              },
            ],
            offers: {
              "@type": "aggregateoffer",
              lowPrice: "49.00",
              highPrice: "52.00",
              priceCurrency: "EUR",
            },
          },
        ],
      }),
    );
    const c = extractProduct(html, URL_);
    expect(c?.title).toBe("Folding Garden Chair");
    expect(c?.price).toEqual({ amount: "49.00", currency: "EUR" });
    expect(c?.provenance.price?.method).toBe("ProductGroup.offers.lowPrice");
    expect(c?.variants.map((v) => v.sku)).toEqual(["GC-204-G", "GC-204-Y"]);
  });

  test("a lower-case itemlist of products is a listing, not a product", () => {
    const html = page(
      ld({
        "@context": "https://schema.org",
        "@type": "itemlist",
        itemListElement: [1, 2, 3].map((n) => ({
          "@type": "listitem",
          position: n,
          item: {
            "@type": "product",
            name: `Chair ${n}`,
            url: `https://shop.example.com/p/chair-${n}`,
            offers: { "@type": "offer", price: `${n}9.00`, priceCurrency: "EUR" },
          },
        })),
      }),
    );
    const read = readPage(html, "https://shop.example.com/c/chairs");
    expect(read.kind).toBe("listing");
  });
});

describe("microdata and RDFa type URLs, any scheme, case and trailing slash", () => {
  test("itemtype https://SCHEMA.org/product/ with an http offer type", () => {
    const html = page(
      "",
      `<div itemscope itemtype="https://SCHEMA.org/product/">
        <h1 itemprop="name">Folding Garden Chair</h1>
        <span itemprop="sku">GC-204</span>
        <div itemprop="offers" itemscope itemtype="HTTP://schema.org/Offer/">
          <meta itemprop="priceCurrency" content="EUR">
          <span itemprop="price" content="49.00">49,00 €</span>
          <link itemprop="availability" href="http://schema.org/OutOfStock">
        </div>
      </div>`,
    );
    const c = extractProduct(html, URL_);
    expect(c?.sku).toBe("GC-204");
    expect(c?.price).toEqual({ amount: "49.00", currency: "EUR" });
    expect(c?.availability).toBe("OutOfStock");
    expect(c?.provenance.sku?.source).toBe("microdata");
  });

  test("RDFa typeof with a lower-case prefixed type", () => {
    const html = page(
      "",
      `<div vocab="https://schema.org/" typeof="schema:product">
        <h1 property="name">Folding Garden Chair</h1>
        <span property="sku">GC-204</span>
        <div property="offers" typeof="offer">
          <span property="price" content="49.00">49,00</span>
          <span property="priceCurrency" content="EUR">€</span>
        </div>
      </div>`,
    );
    const c = extractProduct(html, URL_);
    expect(c?.sku).toBe("GC-204");
    expect(c?.price).toEqual({ amount: "49.00", currency: "EUR" });
    expect(c?.provenance.sku?.source).toBe("rdfa");
  });
});

describe("one Product per variant", () => {
  test("a GTIN or picture that differs between the variants is not the product's; they are no list", () => {
    const variant = (colour: string, gtin: string) => ({
      "@type": "Product",
      name: "Knitted Cardigan",
      sku: `KC-1-${colour}`,
      gtin13: gtin,
      color: colour,
      image: `https://cdn.example.com/kc-1-${colour}.jpg`,
      url: `https://shop.example.com/p/knitted-cardigan-${gtin}.html`,
      offers: { "@type": "Offer", price: "39.99", priceCurrency: "EUR" },
    });
    const html = page(
      `<meta property="og:image" content="https://cdn.example.com/kc-1-black.jpg">` +
        ld({
          "@context": "https://schema.org",
          "@graph": [
            variant("navy", "4006381333931"),
            variant("black", "4006381333948"),
            variant("grey", "4006381333955"),
          ],
        }),
      "<h1>Knitted Cardigan</h1>",
    );
    const url = "https://shop.example.com/p/knitted-cardigan?colour=black";
    const c = extractProduct(html, url);
    expect(c?.gtin).toBeNull();
    expect(c?.images[0]).toBe("https://cdn.example.com/kc-1-black.jpg");
    expect(c?.variants.map((v) => v.gtin)).toEqual([
      "4006381333931",
      "4006381333948",
      "4006381333955",
    ]);
    // Each variant has an address of its own, yet they are one product, not a category's list.
    expect(readPage(html, url).kind).toBe("product");
  });
});
