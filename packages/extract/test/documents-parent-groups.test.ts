import { emptyCandidate } from "../src/product-candidate.js";
import type { DocumentRow } from "../src/documents/document-row.js";
import { parentGroups, type ParentGroupsOptions } from "../src/documents/parent-groups.js";

type Finished = { title: string; variants: string[] };

function groups(overrides: Partial<ParentGroupsOptions<string, string>> = {}) {
  return parentGroups<string, string>({
    finish: ({ parent, variants, ref }) => {
      const product = emptyCandidate();
      product.title = parent?.item ?? `group ${ref}`;
      product.attributes.variants = variants.map((v) => v.item);
      return { row: parent?.row ?? variants[0]!.row, ok: true, product };
    },
    unknownParent: "own",
    lateError: (row, ref) => `row ${row}: late for "${ref}"`,
    ...overrides,
  });
}

function read(rows: DocumentRow[]): (Finished | string)[] {
  return rows.map((r) =>
    r.ok
      ? { title: r.product.title!, variants: r.product.attributes.variants as string[] }
      : r.error,
  );
}

describe("parent groups", () => {
  test("variants before and after their parent end up on it, in row order", () => {
    const g = groups();
    const out = [
      ...g.variant(2, "red", "sku:TEE", "TEE"),
      ...g.product(3, "Tee", ["sku:TEE", "id:7"], true),
      ...g.variant(4, "blue", "id:7", "id:7"),
      ...g.product(5, "Mug", ["sku:MUG"], false),
    ];
    expect(read(out)).toEqual([{ title: "Mug", variants: [] }]);
    expect(read(g.end())).toEqual([{ title: "Tee", variants: ["red", "blue"] }]);
  });

  test("a group whose parent is in no row becomes a product of its own", () => {
    const g = groups();
    g.variant(2, "S", "G1", "G1");
    g.variant(3, "M", "G1", "G1");
    expect(read(g.end())).toEqual([{ title: "group G1", variants: ["S", "M"] }]);
  });

  test("with unknownParent error, each variant of a missing parent is an error row", () => {
    const g = groups({
      unknownParent: "error",
      unknownParentError: (row, ref) => `row ${row}: no parent "${ref}"`,
    });
    g.variant(2, "S", "G1", "G1");
    g.variant(3, "M", "G1", "G1");
    expect(read(g.end())).toEqual(['row 2: no parent "G1"', 'row 3: no parent "G1"']);
  });

  test("a variant after its parent was finished is reported", () => {
    const g = groups();
    g.product(2, "Mug", ["sku:MUG"], false);
    expect(read(g.variant(3, "big", "sku:MUG", "MUG"))).toEqual(['row 3: late for "MUG"']);
  });

  test("past the row limit the oldest group is let go, and its late variants reported", () => {
    const g = groups({ maxWaitingRows: 3 });
    expect(g.product(2, "A", ["A"], true)).toEqual([]);
    g.variant(3, "a1", "A", "A");
    g.product(4, "B", ["B"], true);
    expect(read(g.variant(5, "b1", "B", "B"))).toEqual([{ title: "A", variants: ["a1"] }]);
    expect(read(g.variant(6, "a2", "A", "A"))).toEqual(['row 6: late for "A"']);
    expect(read(g.end())).toEqual([{ title: "B", variants: ["b1"] }]);
  });
});
