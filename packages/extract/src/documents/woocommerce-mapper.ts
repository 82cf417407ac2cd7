import { emptyCandidate, type ProductCandidate } from "../product-candidate.js";
import { absoluteUrl, detached, imageUrls, toAvailability, toGtin } from "./cell-values.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import {
  applyPrice,
  attachVariants,
  documentSource,
  readPriceCell,
  variantDraft,
  type CurrencyContext,
  type VariantDraft,
} from "./price-fields.js";
import { parentGroups } from "./parent-groups.js";
import { followStock, quantityFromVariants, readStockCell } from "./stock-cells.js";

/**
 * WooCommerce product CSV: simple/grouped/external products are yielded at once; a variable
 * product collects its `variation` rows, whose Parent is the parent's SKU or "id:123", whether
 * they come before or after it.
 */
export function woocommerceMapper(
  headers: readonly string[],
  index: ReadonlyMap<string, number>,
  defaultCurrency: string | null,
): TableMapper {
  const col = (name: string) => index.get(name);
  const label = (name: string) => {
    const i = col(name);
    return i === undefined ? name : headers[i]!.trim();
  };
  const get = (cells: readonly string[], name: string) => {
    const i = col(name);
    return i === undefined ? "" : (cells[i] ?? "").trim();
  };
  const attributeColumns: { name: string; values: string }[] = [];
  for (let n = 1; col(`attribute${n}name`) !== undefined; n++)
    attributeColumns.push({ name: `attribute${n}name`, values: `attribute${n}values` });
  const gtinColumn = ["gtinupceanorisbn", "gtin", "ean", "upc", "barcode"].find(
    (n) => col(n) !== undefined,
  );
  const ctx: CurrencyContext = { rowCurrency: null, defaultCurrency };

  const groups = parentGroups<ProductCandidate, VariantDraft>({
    finish({ parent, variants }) {
      const product = parent!.item;
      const method = `rows linked by column ${label("parent")}`;
      attachVariants(
        product,
        variants.map((v) => v.item),
        method,
      );
      quantityFromVariants(product, method);
      followStock(product);
      return { row: parent!.row, ok: true, product };
    },
    unknownParent: "error",
    unknownParentError: (row, ref) =>
      `row ${row}: variation of "${ref}", but no variable product with that SKU or ID is in the file`,
    lateError: (row, ref) =>
      `row ${row}: variation of "${ref}" comes after its parent was already imported (the parent is not a variable product, or the variation is too far from it); put variations next to their parent`,
  });

  const keysOf = (cells: readonly string[]) => {
    const keys: string[] = [];
    const sku = get(cells, "sku");
    const id = get(cells, "id");
    if (sku) keys.push(`sku:${sku}`);
    if (id) keys.push(`id:${id}`);
    return keys;
  };
  const parentKey = (ref: string) =>
    /^id:\s*\d+$/i.test(ref) ? `id:${ref.replace(/^id:\s*/i, "")}` : `sku:${ref}`;

  function price(cells: readonly string[], row: number) {
    for (const name of ["saleprice", "regularprice"]) {
      const method = `column ${label(name)}`;
      const cell = readPriceCell(get(cells, name), method, `row ${row}`, ctx);
      if (cell) return "error" in cell ? cell : { ...cell, method };
    }
    return null;
  }

  /** The Stock column: a count (empty when the shop does not manage the item's stock). */
  function stock(cells: readonly string[], row: number) {
    const cell = readStockCell(get(cells, "stock"), `column ${label("stock")}`, `row ${row}`);
    return cell && "availability" in cell ? null : cell;
  }

  function availability(cells: readonly string[]): string | null {
    const inStock = get(cells, "instock").toLowerCase();
    if (inStock === "backorder" || inStock === "onbackorder") return "BackOrder";
    return toAvailability(inStock) ?? toAvailability(get(cells, "stock"));
  }

  function product(record: TableRecord, type: string): DocumentRow | ProductCandidate {
    const { cells, row } = record;
    const title = get(cells, "name");
    if (!title)
      return { row, ok: false, error: `row ${row}: no title (expected a Title/Name column)` };
    const cell = price(cells, row);
    if (cell && "error" in cell) return { row, ok: false, error: cell.error };
    const count = stock(cells, row);
    if (count && "error" in count) return { row, ok: false, error: count.error };
    const p = emptyCandidate();
    const set = <K extends "title" | "sku" | "description" | "brand" | "availability" | "gtin">(
      key: K,
      value: string | null,
      column: string,
    ) => {
      if (value) {
        p[key] = value;
        p.provenance[key] = documentSource(`column ${label(column)}`);
      }
    };
    set("title", title, "name");
    set("sku", get(cells, "sku"), "sku");
    const description = get(cells, "description") ? "description" : "shortdescription";
    set("description", get(cells, description), description);
    set("brand", get(cells, "brands"), "brands");
    set("availability", availability(cells), get(cells, "instock") ? "instock" : "stock");
    if (gtinColumn) set("gtin", toGtin(get(cells, gtinColumn)), gtinColumn);
    if (count) {
      p.quantity = count.quantity;
      p.provenance.quantity = documentSource(`column ${label("stock")}`);
    }
    followStock(p);
    if (cell) applyPrice(p, cell.read, cell.method, ctx);
    p.images = [...new Set(imageUrls(get(cells, "images")))];
    if (p.images.length > 0) p.provenance.images = documentSource(`column ${label("images")}`);

    const attrs = p.attributes;
    attrs.type = type;
    const put = (key: string, column: string) => {
      const v = get(cells, column);
      if (v) attrs[key] = v;
    };
    put("wooId", "id");
    put("categories", "categories");
    put("tags", "tags");
    put("groupedProducts", "groupedproducts");
    const external = absoluteUrl(get(cells, "externalurl"));
    if (external) attrs.externalUrl = external;
    const published = get(cells, "published");
    if (published) attrs.published = published === "1";
    const options: Record<string, string[]> = {};
    for (const a of attributeColumns) {
      const name = get(cells, a.name);
      const values = get(cells, a.values)
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
      if (name && values.length > 0) options[name] = values;
    }
    if (Object.keys(options).length > 0) attrs.options = options;
    return p;
  }

  function variation(record: TableRecord): VariantDraft | DocumentRow {
    const { cells, row } = record;
    const cell = price(cells, row);
    if (cell && "error" in cell) return { row, ok: false, error: cell.error };
    const count = stock(cells, row);
    if (count && "error" in count) return { row, ok: false, error: count.error };
    const options: Record<string, string> = {};
    for (const a of attributeColumns) {
      const name = get(cells, a.name);
      const value = get(cells, a.values);
      if (name && value) options[name] = value;
    }
    return variantDraft(
      {
        sku: get(cells, "sku") || null,
        title: get(cells, "name") || null,
        options,
        gtin: gtinColumn ? toGtin(get(cells, gtinColumn)) : null,
        availability: availability(cells),
        image: imageUrls(get(cells, "images"))[0] ?? null,
        ...(count ? { quantity: count.quantity } : {}),
      },
      cell?.read ?? null,
      ctx,
    );
  }

  return {
    push(record: TableRecord): DocumentRow[] {
      const type = get(record.cells, "type").toLowerCase();
      if (type.split(",").some((t) => t.trim() === "variation")) {
        const parentRef = get(record.cells, "parent");
        if (!parentRef)
          return [
            {
              row: record.row,
              ok: false,
              error: `row ${record.row}: a variation without a Parent (the parent product's SKU or id:123)`,
            },
          ];
        const draft = variation(record);
        if (!("variant" in draft)) return [draft];
        return groups.variant(
          record.row,
          detached(draft),
          detached(parentKey(parentRef)),
          detached(parentRef),
        );
      }
      const built = product(record, type);
      if (!("title" in built)) return [built];
      const keys = keysOf(record.cells).map((k) => detached(k));
      const variable = type.includes("variable");
      return groups.product(record.row, variable ? detached(built) : built, keys, variable);
    },
    end: () => groups.end(),
  };
}
