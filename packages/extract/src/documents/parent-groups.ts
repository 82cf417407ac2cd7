import type { DocumentRow } from "./document-row.js";

/**
 * Rows that are products, and rows that are variants of a parent they name by key (WooCommerce's
 * Parent, a sheet's `parent_sku`, Google's `item_group_id`), grouped whatever their order.
 *
 * - A product row that may have variants waits for them until the end of the file (`wait`), since
 *   exports sort by id or name and a variant can come long after its parent, or before it. A
 *   product row that cannot have variants (`wait: false`) is finished at once with the variants
 *   already seen. Rows are not emitted early when the key changes: a later row may still name the
 *   parent, and one rule for every order is easier to trust than a fast path with exceptions.
 * - Memory is bounded: past `maxWaitingRows` held rows the oldest waiting group is finished, and a
 *   variant naming a group already finished is an error row saying to put variants next to their
 *   parent.
 * - A variant whose parent is in no row of the file: with `unknownParent: "own"` its group becomes
 *   a product of its own (finished with `parent: null`; the caller titles it from the first
 *   variant), which is what Google's `item_group_id` means (the group IS the product; no row
 *   stands for it) and what a sheet of only variant rows expects. With `"error"` (WooCommerce,
 *   whose variations always belong to a variable product row) each such variant is an error row.
 *
 * Items are kept beyond their row: pass them through `detached` (cell-values.ts) first.
 */
export interface Held<T> {
  row: number;
  item: T;
}

export interface ParentGroup<P, V> {
  /** The key variants named, as `variant()` was given it. */
  key: string;
  /** The parent as the first variant row wrote it (for messages). */
  ref: string;
  /** Null when no row of the file is the parent (`unknownParent: "own"`). */
  parent: Held<P> | null;
  /** In row order. */
  variants: Held<V>[];
}

export interface ParentGroupsOptions<P, V> {
  /** Builds the product of a finished group (its row is the parent's, else its first variant's). */
  finish(group: ParentGroup<P, V>): DocumentRow;
  unknownParent: "own" | "error";
  /** Message for a variant whose parent is in no row (`"error"`), e.g. `row 9: variation of "X", ...`. */
  unknownParentError?(row: number, ref: string): string;
  /** Message for a variant naming a group already finished. */
  lateError(row: number, ref: string): string;
  maxWaitingRows?: number;
}

export interface ParentGroups<P, V> {
  /**
   * A product row, named by `keys` (its SKU, id...). `wait`: it may have variants later in the
   * file; otherwise it is finished now with the variants seen before it.
   */
  product(row: number, item: P, keys: readonly string[], wait: boolean): DocumentRow[];
  /** A variant row naming its parent by `key` (`ref`: as the row wrote it). */
  variant(row: number, item: V, key: string, ref: string): DocumentRow[];
  /** The groups still held, in the order their first row came, then the unknown parents' rows. */
  end(): DocumentRow[];
}

/** Variable products (and groups) wait at most this many rows in all; see the header comment. */
export const MAX_WAITING_ROWS = 50_000;

interface Group<P, V> extends ParentGroup<P, V> {
  keys: string[];
}

export function parentGroups<P, V>(options: ParentGroupsOptions<P, V>): ParentGroups<P, V> {
  const limit = options.maxWaitingRows ?? MAX_WAITING_ROWS;
  /** Groups by every key that names them; a group without a parent row has only its own key. */
  const byKey = new Map<string, Group<P, V>>();
  /** Every held group, oldest first (Map keeps insertion order). */
  const held = new Set<Group<P, V>>();
  const finished = new Set<string>();
  let waiting = 0;

  function close(group: Group<P, V>): DocumentRow[] {
    held.delete(group);
    waiting -= (group.parent ? 1 : 0) + group.variants.length;
    for (const key of group.keys) {
      byKey.delete(key);
      finished.add(key);
    }
    if (group.parent === null && options.unknownParent === "error") {
      return group.variants.map((v) => ({
        row: v.row,
        ok: false as const,
        error: options.unknownParentError
          ? options.unknownParentError(v.row, group.ref)
          : `row ${v.row}: names the parent "${group.ref}", but no row of the file is that product`,
      }));
    }
    return [options.finish(group)];
  }

  /** Lets the oldest held groups go when too much is held. */
  function relieve(out: DocumentRow[]): void {
    for (const group of held) {
      if (waiting <= limit) break;
      out.push(...close(group));
    }
  }

  return {
    product(row, item, keys, wait) {
      const out: DocumentRow[] = [];
      const early: Held<V>[] = [];
      for (const key of keys) {
        const orphan = byKey.get(key);
        if (!orphan || orphan.parent !== null) continue;
        held.delete(orphan);
        byKey.delete(key);
        waiting -= orphan.variants.length;
        early.push(...orphan.variants);
      }
      early.sort((a, b) => a.row - b.row);
      const group: Group<P, V> = {
        key: keys[0] ?? "",
        ref: keys[0] ?? "",
        keys: [...keys],
        parent: { row, item },
        variants: early,
      };
      if (!wait) {
        for (const key of keys) finished.add(key);
        out.push(options.finish(group));
        return out;
      }
      for (const key of keys) if (!byKey.has(key)) byKey.set(key, group);
      held.add(group);
      waiting += 1 + early.length;
      relieve(out);
      return out;
    },
    variant(row, item, key, ref) {
      const out: DocumentRow[] = [];
      const group = byKey.get(key);
      if (group) {
        group.variants.push({ row, item });
        waiting++;
      } else if (finished.has(key)) {
        return [{ row, ok: false, error: options.lateError(row, ref) }];
      } else {
        const orphan: Group<P, V> = {
          key,
          ref,
          keys: [key],
          parent: null,
          variants: [{ row, item }],
        };
        byKey.set(key, orphan);
        held.add(orphan);
        waiting++;
      }
      relieve(out);
      return out;
    },
    end() {
      const out: DocumentRow[] = [];
      const withParent = [...held].filter((g) => g.parent !== null);
      const without = [...held].filter((g) => g.parent === null);
      for (const group of withParent) out.push(...close(group));
      for (const group of without) out.push(...close(group));
      return out;
    },
  };
}
