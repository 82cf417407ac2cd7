/**
 * The path to the first string (a value or an object key) holding U+0000, or null. PostgreSQL
 * can store NUL in neither text nor jsonb, and a search for one fails (22021), so such input is
 * refused before it gets there. Recursive: run it only on values `pathTooDeep` has passed.
 */
export function pathWithNul(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (typeof value !== "object" || value === null) return null;
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    if (typeof key === "string" && key.includes("\u0000")) return [...path, key.replaceAll("\u0000", "\\u0000")];
    const found = pathWithNul(child, [...path, key]);
    if (found) return found;
  }
  return null;
}
