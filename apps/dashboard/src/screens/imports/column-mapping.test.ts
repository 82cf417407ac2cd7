import { describe, expect, it } from "vitest";
import {
  columnsSample,
  draftFrom,
  isTableFile,
  fieldLabel,
  mappingProblems,
  previewPrice,
  previewStock,
  previewVariants,
  templateNameFor,
  toMapping,
  type DraftColumn,
} from "./column-mapping";

const col = (column: string, field: DraftColumn["field"], name = ""): DraftColumn => ({
  column,
  field,
  name,
});

describe("fieldLabel", () => {
  it("names the catalog's fields as a merchant does", () => {
    expect(fieldLabel("title")).toBe("Product name");
    expect(fieldLabel("quantity")).toBe("Stock quantity");
    expect(fieldLabel("gtin")).toBe("Barcode (GTIN/EAN/UPC)");
    expect(fieldLabel("parent")).toBe("Parent SKU (variant of)");
    expect(fieldLabel("ignore")).toBe("Don't import");
  });
});

describe("draftFrom and toMapping", () => {
  it("starts from the service's reading and sends every column, names only for options and attributes", () => {
    const draft = draftFrom([
      { column: "Artikel", samples: ["Mug"], field: "title", name: null, recognised: false },
      { column: "Farbe", samples: ["Blau"], field: "attribute", name: "Farbe", recognised: false },
    ]);
    expect(draft).toEqual([col("Artikel", "title"), col("Farbe", "attribute", "Farbe")]);
    draft[1] = col("Farbe", "option", " Color ");
    expect(toMapping([...draft, col("Preis", "price", "left over")])).toEqual({
      columns: [
        { column: "Artikel", field: "title" },
        { column: "Farbe", field: "option", name: "Color" },
        { column: "Preis", field: "price" },
      ],
    });
  });

  it("leaves an empty option name out, so the header names it", () => {
    expect(toMapping([col("Farbe", "option", "  ")]).columns[0]).toEqual({
      column: "Farbe",
      field: "option",
    });
  });
});

describe("mappingProblems", () => {
  it("asks for a product name column", () => {
    expect(mappingProblems([col("Preis", "price")])).toEqual([
      "Choose the column that holds the product name (“Product name”).",
    ]);
  });

  it("names the columns that both give one value", () => {
    expect(
      mappingProblems([
        col("Artikel", "title"),
        col("Preis", "price"),
        col("Preis brutto", "price"),
        col("UVP", "price"),
      ]),
    ).toEqual([
      "“Price” is chosen for “Preis”, “Preis brutto” and “UVP”: choose it for one column only, “Don't import” for the others.",
    ]);
  });

  it("lets images, options, attributes and ignored columns repeat", () => {
    expect(
      mappingProblems([
        col("Artikel", "title"),
        col("Bild 1", "images"),
        col("Bild 2", "images"),
        col("Farbe", "option"),
        col("Größe", "option"),
        col("x", "ignore"),
        col("y", "ignore"),
      ]),
    ).toEqual([]);
  });
});

describe("preview cells", () => {
  it("shows a price with its currency, a dash without one", () => {
    expect(previewPrice({ price: { amount: "19.99", currency: "EUR" } })).toBe("19.99 EUR");
    expect(previewPrice({ price: null })).toBe("—");
  });

  it("reads a product without a price from its variants", () => {
    const v = (amount: string) => ({ price: { amount, currency: "EUR" } });
    expect(previewPrice({ price: null, variants: [v("10.00"), v("10.00")] })).toBe("10.00 EUR");
    expect(previewPrice({ price: null, variants: [v("12.00"), v("10.00")] })).toBe(
      "from 10.00 EUR",
    );
  });

  it("counts stock and variants in words", () => {
    expect(previewStock({ quantity: 1200 })).toBe("1,200");
    expect(previewStock({ quantity: null })).toBe("unknown");
    expect(previewStock({ quantity: null, variants: [{ quantity: 3 }, { quantity: 4 }] })).toBe(
      "7",
    );
    expect(previewVariants({ variants: [] })).toBe("none");
    expect(previewVariants({ variants: [{}] })).toBe("1 variant");
    expect(previewVariants({ variants: [{}, {}, {}] })).toBe("3 variants");
  });
});

describe("columnsSample", () => {
  it("sends the first 256 KB of a big CSV, an XLSX whole", () => {
    const big = new File(["a".repeat(300 * 1024)], "big.csv");
    expect(columnsSample(big).size).toBe(256 * 1024);
    const small = new File(["title\nMug\n"], "small.TSV");
    expect(columnsSample(small).size).toBe(small.size);
    const book = new File(["x".repeat(300 * 1024)], "book.xlsx");
    expect(columnsSample(book).size).toBe(300 * 1024);
  });
});

describe("isTableFile", () => {
  it("asks about the columns of tables only", () => {
    expect(["a.csv", "b.TSV", "c.xlsx"].map(isTableFile)).toEqual([true, true, true]);
    expect(["items.json", "items.ndjson"].map(isTableFile)).toEqual([false, false]);
  });
});

describe("templateNameFor", () => {
  it("suggests the file's name", () => {
    expect(templateNameFor("lieferant-a.csv")).toBe("lieferant-a");
    expect(templateNameFor(".csv")).toBe("My columns");
  });
});
