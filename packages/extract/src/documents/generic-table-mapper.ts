import type { GenericField } from "./column-names.js";
import type { ColumnAssignment, MappedField } from "./column-mapping.js";
import { MalformedDocumentError } from "./document-errors.js";
import type { DocumentRow, TableMapper, TableRecord } from "./document-row.js";
import { detached } from "./cell-values.js";
import { buildGenericProduct, fillFromFirstVariant, type FieldHit } from "./generic-product.js";
import { groupTitle, variantFromProduct } from "./group-product.js";
import { parentGroups, type ParentGroup } from "./parent-groups.js";
import { attachVariants, documentSource, type VariantDraft } from "./price-fields.js";
import type { ProductCandidate } from "../product-candidate.js";
import { followStock } from "./stock-cells.js";

/** A variant row, read: the row as a product (for a group no row stands for) and as a variant. */
interface VariantRow {
  product: ProductCandidate;
  draft: VariantDraft;
  ownTitle: string | null;
}

/**
 * Any spreadsheet read column by column (`assignments`: recognised headers, or the uploader's
 * mapping): one row, one product; option columns are attributes.
 *
 * With a `parent` column, a row whose parent cell is set is a variant of the row whose SKU
 * equals it (before or after it in the file; parent-groups.ts), its options from the `option`
 * columns; a row without one is a product. A parent without a price, stock or SKU of its own
 * takes its first variant's (its stock: the variants' total), and a variant without a price
 * takes its parent's. Variant rows naming a SKU that no row has are one product of their own
 * (named by the words their titles share, SKU the parent value): a sheet of only variant rows,
 * like Google's item_group_id, means that.
 */
export function genericTableMapper(
  headers: readonly string[],
  assignments: readonly ColumnAssignment[],
  defaultCurrency: string | null,
): TableMapper {
  const byField = new Map<MappedField, ColumnAssignment[]>();
  for (const assignment of assignments) {
    const list = byField.get(assignment.field) ?? [];
    list.push(assignment);
    byField.set(assignment.field, list);
  }
  for (const list of byField.values()) list.sort((a, b) => a.rank - b.rank);
  if (!byField.has("title")) {
    const found = headers
      .filter((h) => h.trim() !== "")
      .slice(0, 12)
      .map((h) => `"${h.trim()}"`)
      .join(", ");
    throw new MalformedDocumentError(
      `the header row has no Title or Name column (found ${found || "no column names"}); name the product-name column "Title" or "Name"`,
    );
  }
  const columns = (field: MappedField) => byField.get(field) ?? [];
  const parentColumns = columns("parent");
  const optionColumns = columns("option");
  const linkedBy = `rows linked by column ${parentColumns[0]?.header ?? "parent"}`;

  const optionsOf = (cells: readonly string[], among: readonly ColumnAssignment[]) => {
    const out: Record<string, string> = {};
    for (const c of among) {
      const value = cells[c.index]?.trim();
      if (!value) continue;
      const named = c.nameColumn === undefined ? "" : (cells[c.nameColumn]?.trim() ?? "");
      out[named || (c.name ?? c.header)] = value;
    }
    return out;
  };

  const groups = parentGroups<ProductCandidate, VariantRow>({
    finish: finishGroup,
    unknownParent: "own",
    lateError: (row, ref) =>
      `row ${row}: a variant of "${ref}" comes after its parent was already imported (the rows between them are too many); put variant rows next to their parent`,
  });

  function finishGroup(group: ParentGroup<ProductCandidate, VariantRow>): DocumentRow {
    const rows = group.variants.map((v) => v.item);
    let product: ProductCandidate;
    if (group.parent) {
      product = group.parent.item;
    } else {
      product = rows[0]!.product;
      const values = rows.flatMap((r) => Object.values(r.draft.variant.options));
      product.title = groupTitle(
        rows.map((r) => r.ownTitle ?? group.ref),
        values,
      );
      product.sku = group.ref;
      product.provenance.sku = documentSource(linkedBy);
      product.price = null;
      product.quantity = null;
      product.availability = null;
      product.gtin = null;
      delete product.attributes.priceWithoutCurrency;
      for (const r of rows.slice(1))
        for (const url of r.product.images)
          if (!product.images.includes(url)) product.images.push(url);
    }
    const drafts = rows.map((r): VariantDraft => {
      if (r.draft.variant.price !== null || r.draft.amountWithoutCurrency !== null || !group.parent)
        return r.draft;
      const withoutCurrency = product.attributes.priceWithoutCurrency;
      return {
        variant: { ...r.draft.variant, price: product.price },
        amountWithoutCurrency:
          product.price === null && typeof withoutCurrency === "string" ? withoutCurrency : null,
      };
    });
    if (drafts.length > 0) {
      attachVariants(product, drafts, linkedBy);
      fillFromFirstVariant(product, linkedBy);
      followStock(product);
    }
    return { row: group.parent?.row ?? group.variants[0]!.row, ok: true, product };
  }

  function build(record: TableRecord, parentRef: string | null) {
    const { cells } = record;
    const hits = (field: GenericField): FieldHit[] => {
      const found = columns(field as MappedField).map((c) => ({
        value: cells[c.index],
        method: `column ${c.header}`,
      }));
      // A variant row needs no title of its own.
      if (field === "title" && parentRef) found.push({ value: parentRef, method: linkedBy });
      return found;
    };
    // A product row's options are its attributes; a variant row's, its variant's options.
    const attributes: Record<string, unknown> = {};
    if (!parentRef) {
      for (const { index, header, name } of columns("attribute")) {
        const value = cells[index]?.trim();
        if (value) attributes[name ?? header] = value;
      }
      Object.assign(attributes, optionsOf(cells, optionColumns));
    }
    return buildGenericProduct(
      { hits },
      {
        label: `row ${record.row}`,
        titleHint: "expected a Title/Name column",
        defaultCurrency,
        attributes,
      },
    );
  }

  if (parentColumns.length === 0) {
    return {
      push(record: TableRecord): DocumentRow[] {
        const result = build(record, null);
        return [
          result.ok
            ? { row: record.row, ok: true, product: result.product }
            : { row: record.row, ok: false, error: result.error },
        ];
      },
      end: () => [],
    };
  }

  return {
    push(record: TableRecord): DocumentRow[] {
      const parentRef =
        parentColumns.map((c) => record.cells[c.index]?.trim() ?? "").find((v) => v !== "") ?? null;
      // A parent row naming itself (some exports fill the column on every row) is the parent.
      const own = columns("sku").some((c) => record.cells[c.index]?.trim() === parentRef);
      const result = build(record, own ? null : parentRef);
      if (!result.ok) return [{ row: record.row, ok: false, error: result.error }];
      const p = result.product;
      if (parentRef && !own) {
        const ownTitle = p.provenance.title?.method === linkedBy ? null : p.title;
        if (ownTitle === null) p.title = null;
        const draft = variantFromProduct(p, ownTitle, optionsOf(record.cells, optionColumns));
        const ref = detached(parentRef);
        return groups.variant(record.row, detached({ product: p, draft, ownTitle }), ref, ref);
      }
      if (!p.sku) return [{ row: record.row, ok: true, product: p }];
      return groups.product(record.row, detached(p), [detached(p.sku)], true);
    },
    end: () => groups.end(),
  };
}
