import { isDeepStrictEqual } from "node:util";

export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** `{ field: { from, to } }` for each field of `next` whose value differs from `prev`. */
export function fieldDiff<T extends object>(prev: Partial<T>, next: Partial<T>): FieldChanges {
  const changes: FieldChanges = {};
  for (const key of Object.keys(next) as (keyof T & string)[]) {
    const from = prev[key] ?? null;
    const to = next[key] ?? null;
    if (!isDeepStrictEqual(from, to)) changes[key] = { from, to };
  }
  return changes;
}
