import { readFileSync, createReadStream } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sharedInput, sharedPath } from "@catalog/test-support/shared-inputs";
import type { ProductCandidate } from "../src/product-candidate.js";
import { describeDocument, parseDocument, type DocumentRow } from "../src/documents/index.js";

// The shared corpus lives beside the repository (../shared/corpus), not in it; with CI set, its
// absence fails the run.
const corpus = pathToFileURL(sharedPath("corpus/"));
const expectationsFile = new URL("expected-documents.jsonl", corpus);
const present =
  sharedInput({
    what: "the documents corpus",
    path: expectationsFile,
    tests: "the documents corpus tests",
  }) !== null;

type Expected = Record<string, unknown> & { kind: string; file: string; source: string };
const lines: Expected[] = present
  ? readFileSync(expectationsFile, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Expected)
  : [];
const documents = lines.filter((l) => l.kind === "document");

async function parse(file: string): Promise<DocumentRow[]> {
  const path = fileURLToPath(new URL(file, corpus));
  const rows: DocumentRow[] = [];
  // The templates do not state a currency (it is the store's): pass one, as the importer would.
  for await (const row of parseDocument(createReadStream(path, { highWaterMark: 1024 }), {
    filename: path,
    maxBytes: 5_000_000,
    currency: "USD",
  }))
    rows.push(row);
  return rows;
}

const sameDecimal = (actual: string | null | undefined, expected: unknown) =>
  expected === null
    ? actual === null || actual === undefined
    : actual !== null && actual !== undefined && Number(actual) === Number(expected);

function keyOf(source: string, p: ProductCandidate): string | undefined {
  const key = source === "shopify" ? p.attributes.handle : p.attributes.wooId;
  return typeof key === "string" ? key : undefined;
}

(present ? describe : describe.skip)("corpus documents", () => {
  // With no corpus there are no rows, and jest refuses an empty table even inside a skipped block.
  if (!present) return void test("corpus present", () => {});
  describe.each(documents.map((d) => [d.file, d] as const))("%s", (file, doc) => {
    const products = lines.filter((l) => l.kind === "product" && l.file === file);

    if (doc.format === "xml-wxr") {
      test("WordPress XML export: product count, titles, SKUs and prices", async () => {
        const head = readFileSync(fileURLToPath(new URL(file, corpus))).subarray(0, 65536);
        expect(describeDocument(head, { filename: file }).format).toBe("xml");
        const rows = await parse(file);
        expect(rows.filter((r) => !r.ok)).toEqual([]);
        expect(rows).toHaveLength(doc.product_count as number);
        const variants = rows.reduce((n, r) => n + (r.ok ? r.product.variants.length : 0), 0);
        expect(variants).toBe(doc.variant_count);
        expect(new Set(rows.map((r) => r.row)).size).toBe(rows.length);
        const byKey = new Map(
          rows.flatMap((r) => (r.ok ? [[keyOf(doc.source, r.product), r.product] as const] : [])),
        );
        for (const exp of products) {
          const p = byKey.get(exp.product_key as string);
          expect([exp.product_key, p?.title, p?.sku]).toEqual([
            exp.product_key,
            exp.title,
            exp.sku,
          ]);
          expect([exp.product_key, sameDecimal(p?.price?.amount, exp.price)]).toEqual([
            exp.product_key,
            true,
          ]);
          if (exp.price !== null) expect(p?.price?.currency).toBe("USD");
          expect(p?.attributes.type).toBe(exp.type);
          expect(p?.availability).toBe(exp.stock_status === "instock" ? "InStock" : "OutOfStock");
        }
      });
      return;
    }

    let rows: DocumentRow[] = [];
    beforeAll(async () => {
      rows = await parse(file);
    });
    const byKey = () =>
      new Map(
        rows.flatMap((r) => (r.ok ? [[keyOf(doc.source, r.product), r.product] as const] : [])),
      );

    test("format, delimiter and encoding", () => {
      const head = readFileSync(fileURLToPath(new URL(file, corpus))).subarray(0, 65536);
      const info = describeDocument(head, { filename: file });
      expect(info).toEqual({
        format: doc.format,
        encoding: doc.encoding,
        delimiter: doc.delimiter,
      });
    });

    test("product and variant counts, no failed rows", () => {
      expect(rows.filter((r) => !r.ok)).toEqual([]);
      expect(rows).toHaveLength(doc.product_count as number);
      const variants = rows.reduce((n, r) => n + (r.ok ? r.product.variants.length : 0), 0);
      expect(variants).toBe(doc.variant_count);
      // Rows are spreadsheet row numbers: the header is row 1, and each product is counted once.
      expect(new Set(rows.map((r) => r.row)).size).toBe(rows.length);
      expect(Math.min(...rows.map((r) => r.row))).toBe(2);
    });

    test.each(products.map((p) => [p.product_key as string, p] as const))(
      "product %s",
      (key, exp) => {
        const p = byKey().get(key);
        expect(p).toBeDefined();
        if (!p) return;
        expect(p.title).toBe(exp.title);
        expect(p.sku).toBe(exp.sku);
        expect(sameDecimal(p.price?.amount, exp.price)).toBe(true);
        const images = exp.images as { count: number; first: string } | undefined;
        if (images) expect([p.images.length, p.images[0]]).toEqual([images.count, images.first]);
        expect(p.provenance.title).toEqual({
          source: "document",
          method: doc.source === "shopify" ? "column Title" : "column Name",
        });
        const variants = exp.variants as Record<string, unknown>[];
        expect(p.variants).toHaveLength(variants.length);
        if (doc.source === "shopify") {
          expect(p.brand).toBe(exp.vendor);
          expect(p.attributes.productType).toBe(exp.type);
          expect(p.attributes.published).toBe(exp.published === "TRUE");
          expect(p.attributes.status ?? null).toBe(exp.status);
          expect(Object.keys(p.variants[0]?.options ?? {})).toEqual(exp.option_names);
          variants.forEach((v, i) => {
            const actual = p.variants[i]!;
            expect(actual.sku).toBe(v.sku);
            expect(sameDecimal(actual.price?.amount, v.price)).toBe(true);
            expect(Object.values(actual.options)).toEqual(v.options);
            expect(actual.image).toBe(v.image);
            // Excel turned these barcodes into "3.65275E+11": digits are lost, so they are not
            // GTINs.
            expect(actual.gtin).toBe(
              typeof v.barcode === "string" && /^\d{8,14}$/.test(v.barcode) ? v.barcode : null,
            );
          });
          const firstCompareAt = variants[0]?.compare_at_price;
          expect(
            sameDecimal(p.attributes.compareAtPrice as string | undefined, firstCompareAt ?? null),
          ).toBe(true);
        } else {
          expect(p.attributes.type).toBe(exp.type);
          expect(p.attributes.categories).toBe(exp.categories);
          expect(p.availability).toBe(exp.in_stock === "1" ? "InStock" : "OutOfStock");
          variants.forEach((v, i) => {
            const actual = p.variants[i]!;
            expect([actual.sku, actual.title]).toEqual([v.sku, v.name]);
            expect(sameDecimal(actual.price?.amount, v.sale_price ?? v.regular_price)).toBe(true);
            expect(Object.values(actual.options)).toEqual(v.attributes);
          });
        }
      },
    );
  });
});
