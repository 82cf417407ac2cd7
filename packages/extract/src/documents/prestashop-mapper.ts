import { emptyCandidate, type ProductCandidate } from "../product-candidate.js";
import { detached, imageUrls, toGtin } from "./cell-values.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { addAmounts, platformColumns, setText } from "./platform-columns.js";
import {
  attachVariants,
  documentSource,
  readPriceCell,
  toMoney,
  variantDraft,
  type CurrencyContext,
  type VariantDraft,
} from "./price-fields.js";
import { followStock, readStockCell } from "./stock-cells.js";
import { parentGroups, type ParentGroup } from "./parent-groups.js";
import type { ProductVariant } from "@catalog/values";

interface ProductRow {
  product: ProductCandidate;
  /** Tax-excluded base price and the tax factor (included / excluded), for combinations. */
  base: { excluded: string | null; factor: number | null };
}

interface Combination {
  /** Impact on price, tax excluded, signed ("-2.00"). */
  impact: string;
  variant: Omit<ProductVariant, "price">;
}

/**
 * PrestaShop's CSV import (Advanced Parameters > Import), "Products" and "Combinations"
 * entities, with the column names of the sample files the import page offers
 * (products_import.csv, combinations_import.csv) as the PrestaShop 1.7/8 user guide describes
 * them (https://docs.prestashop-project.org/1.7-documentation/user-guide/configuring-shop/advanced-parameters/import):
 *
 * - Semicolon-separated; lists inside a cell (categories, image URLs) are comma-separated.
 * - A product row: `Product ID`, `Name *`, `Price tax excluded` and/or `Price tax included`,
 *   `Reference #`, `EAN13`, `UPC`, `Quantity`, `Manufacturer`, `Image URLs (x,y,z...)`,
 *   `Description`/`Summary`. The storefront shows the tax-included price: it is the price when the
 *   file has it, else the tax-excluded one; `attributes.priceTax` says which.
 * - A combination row: `Product ID*` (the product's ID, or its reference),
 *   `Attribute (Name:Type:Position)*` (`Color:color:0, Size:select:1`),
 *   `Value (Value:Position)*` (`Blue:0, M:1`), `Reference`, `EAN13`, `Impact on price` (tax
 *   excluded, added to the product's price), `Quantity`, `Image URLs (x,y,z...)`. Combinations
 *   become variants of the product row with that ID in the same file (a file may hold both);
 *   a product with combinations has their total quantity.
 * - Combinations whose product is not in the file are reported on their rows: PrestaShop
 *   imports combinations onto products it already has, so the products file must be imported
 *   first (or both put in one file). Product and combination rows are grouped, in any order, by
 *   the shared `parentGroups` (parent-groups.ts), which also bounds what is held.
 */
export function prestashopMapper(
  headers: readonly string[],
  index: ReadonlyMap<string, number>,
  defaultCurrency: string | null,
): TableMapper {
  const c = platformColumns(headers, index);
  const ctx: CurrencyContext = { rowCurrency: null, defaultCurrency };
  const hasCombinations = c.pick("attributenametypeposition") !== undefined;

  const IMAGES = ["imageurlsxyz", "imageurls", "images"];
  const SHORT = ["summary", "shortdescription"];

  function productRow(record: TableRecord): ProductRow | DocumentRow {
    const { cells, row } = record;
    const title = c.get(cells, "name");
    if (!title)
      return { row, ok: false, error: `row ${row}: no name (column ${c.label("name").slice(7)})` };
    const incl = readPriceCell(
      c.get(cells, "pricetaxincluded"),
      c.label("pricetaxincluded"),
      `row ${row}`,
      ctx,
    );
    if (incl && "error" in incl) return { row, ok: false, error: incl.error };
    const excl = readPriceCell(
      c.get(cells, "pricetaxexcluded", "price"),
      c.label(c.pick("pricetaxexcluded", "price") ?? "pricetaxexcluded"),
      `row ${row}`,
      ctx,
    );
    if (excl && "error" in excl) return { row, ok: false, error: excl.error };
    const stock = readStockCell(c.get(cells, "quantity"), c.label("quantity"), `row ${row}`);
    if (stock && "error" in stock) return { row, ok: false, error: stock.error };

    const p = emptyCandidate();
    setText(p, "title", title, c.label("name"));
    const ref = c.pick("reference");
    if (ref) setText(p, "sku", c.get(cells, ref), c.label(ref));
    const gtinColumn = ["ean13", "upc", "isbn"].find((n) => toGtin(c.get(cells, n)));
    if (gtinColumn) setText(p, "gtin", toGtin(c.get(cells, gtinColumn)), c.label(gtinColumn));
    const mpn = c.pick("mpn");
    if (mpn) setText(p, "mpn", c.get(cells, mpn), c.label(mpn));
    const brand = c.pick("manufacturer", "brand");
    if (brand) setText(p, "brand", c.get(cells, brand), c.label(brand));
    const description = c.get(cells, "description") ? "description" : c.pick(...SHORT);
    if (description) setText(p, "description", c.get(cells, description), c.label(description));
    const shown = incl ?? excl;
    if (shown) {
      const method = incl
        ? c.label("pricetaxincluded")
        : c.label(c.pick("pricetaxexcluded", "price")!);
      const money = toMoney(shown.read, ctx);
      if (money) {
        p.price = money;
        p.provenance.price = documentSource(method);
      } else p.attributes.priceWithoutCurrency = shown.read.amount;
      p.attributes.priceTax = incl ? "included" : "excluded";
    }
    if (stock && "quantity" in stock) {
      p.quantity = stock.quantity;
      p.provenance.quantity = documentSource(c.label("quantity"));
    } else if (stock && "availability" in stock) p.availability = stock.availability;
    const images = c.pick(...IMAGES);
    if (images) {
      p.images = [...new Set(imageUrls(c.get(cells, images)))];
      if (p.images.length > 0) p.provenance.images = documentSource(c.label(images));
    }
    const attrs = p.attributes;
    const id = c.get(cells, "productid", "id");
    if (id) attrs.prestashopId = id;
    const categories = c.get(cells, "categoriesxyz", "categories");
    if (categories)
      attrs.categories = categories
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    const active = c.get(cells, "active01", "active");
    if (active === "0" || active === "1") attrs.active = active === "1";
    followStock(p);
    const exclAmount = excl?.read.amount ?? null;
    const factor =
      incl && excl && Number(excl.read.amount) > 0
        ? Number(incl.read.amount) / Number(excl.read.amount)
        : null;
    return { product: p, base: { excluded: exclAmount, factor } };
  }

  /** A combination row read on its own; its price needs its product's (see `priced`). */
  function combination(record: TableRecord): Combination | DocumentRow {
    const { cells, row } = record;
    const names = c
      .get(cells, "attributenametypeposition")
      .split(",")
      .map((s) => s.split(":")[0]!.trim());
    const values = c
      .get(cells, "valuevalueposition")
      .split(",")
      .map((s) => s.split(":")[0]!.trim());
    if (names.length !== values.length)
      return {
        row,
        ok: false,
        error: `row ${row}: ${names.length} attributes but ${values.length} values; each attribute (${c.label("attributenametypeposition")}) needs its value (${c.label("valuevalueposition")}), in the same order`,
      };
    const options: Record<string, string> = {};
    names.forEach((n, i) => {
      if (n && values[i]) options[n] = values[i]!;
    });
    const impactText = c.get(cells, "impactonprice");
    const impact = readPriceCell(
      impactText.replace(/^-/, ""),
      c.label("impactonprice"),
      `row ${row}`,
      ctx,
    );
    if (impact && "error" in impact) return { row, ok: false, error: impact.error };
    const stock = readStockCell(c.get(cells, "quantity"), c.label("quantity"), `row ${row}`);
    if (stock && "error" in stock) return { row, ok: false, error: stock.error };
    const impactAmount = impact
      ? impactText.startsWith("-")
        ? `-${impact.read.amount}`
        : impact.read.amount
      : "0";
    const ref = c.get(cells, "reference");
    return {
      impact: impactAmount,
      variant: {
        sku: ref || null,
        title: null,
        options,
        gtin: toGtin(c.get(cells, "ean13")) ?? toGtin(c.get(cells, "upc")),
        availability: stock && "availability" in stock ? stock.availability : null,
        image: imageUrls(c.get(cells, ...IMAGES))[0] ?? null,
        ...(stock && "quantity" in stock ? { quantity: stock.quantity } : {}),
      },
    };
  }

  /**
   * The product's price plus the (tax-excluded) impact, with the product's tax when the price
   * shown is the tax-included one.
   */
  function priced(combo: Combination, parent: ProductRow): VariantDraft {
    const { excluded, factor } = parent.base;
    let amount: string | null = null;
    if (excluded !== null) {
      const net = addAmounts(excluded, combo.impact);
      amount = factor !== null ? (Math.round(Number(net) * factor * 100) / 100).toFixed(2) : net;
    } else if (parent.product.price) amount = addAmounts(parent.product.price.amount, combo.impact);
    return variantDraft(
      combo.variant,
      amount === null ? null : { kind: "ok", amount, currency: null },
      ctx,
    );
  }

  function finish(group: ParentGroup<ProductRow, Combination>): DocumentRow {
    const parent = group.parent!;
    const p = parent.item.product;
    const drafts = group.variants.map((v) => priced(v.item, parent.item));
    if (drafts.length > 0) {
      const method = `rows linked by ${c.label("productid")}`;
      attachVariants(p, drafts, method);
      // In PrestaShop a product with combinations has their stock, not a count of its own.
      if (p.variants.every((v) => typeof v.quantity === "number")) {
        p.quantity = p.variants.reduce((sum, v) => sum + v.quantity!, 0);
        p.provenance.quantity = documentSource(method);
        p.availability = null;
      }
      followStock(p);
    }
    return { row: parent.row, ok: true, product: p };
  }

  const groups = parentGroups<ProductRow, Combination>({
    finish,
    unknownParent: "error",
    unknownParentError: (row, ref) =>
      `row ${row}: a combination of product ${ref}, but no product row with that ID or reference is in this file; import the products file first, or put the products and their combinations in one file`,
    lateError: (row, ref) =>
      `row ${row}: combination of product ${ref} comes too far after its product; put combinations after their product`,
  });

  return {
    push(record: TableRecord): DocumentRow[] {
      const { cells, row } = record;
      if (hasCombinations && c.get(cells, "attributenametypeposition")) {
        const key = c.get(cells, "productid");
        if (!key)
          return [
            {
              row,
              ok: false,
              error: `row ${row}: a combination without ${c.label("productid")} (the ID or reference of its product)`,
            },
          ];
        const combo = combination(record);
        if (!("variant" in combo)) return [combo];
        return groups.variant(row, detached(combo), detached(key), detached(key));
      }
      const built = productRow(record);
      if (!("base" in built)) return [built];
      // The Product ID* of a combination is its product's ID, or its reference when the
      // merchant imports with "use product reference as key".
      const keys = [c.get(cells, "productid", "id"), built.product.sku ?? ""].filter(Boolean);
      return groups.product(row, detached(built), detached(keys), hasCombinations);
    },
    end(): DocumentRow[] {
      return groups.end();
    },
  };
}
