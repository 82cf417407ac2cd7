/**
 * How deeply objects and arrays may nest in anything a client or a source sends us. Validators,
 * the field diff, Prisma and JSON serialization all recurse, and a value nested 10,000 levels
 * deep overflows the stack in whichever touches it first; no catalog field needs more than a few.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The path to the first object or array nested deeper than `maxDepth` (the top-level value is
 * level 1 when it is an object or array), or null when the value stays within it. Iterative,
 * so it is safe on exactly the values it exists to refuse; run it before anything recursive.
 */
export function pathTooDeep(
  value: unknown,
  maxDepth: number = MAX_JSON_DEPTH,
): (string | number)[] | null {
  const stack: { node: unknown; depth: number; path: (string | number)[] }[] = [
    { node: value, depth: 0, path: [] },
  ];
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth + 1 > maxDepth) return path;
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [i, v])
      : Object.entries(node);
    for (const [key, child] of entries) {
      if (typeof child === "object" && child !== null)
        stack.push({ node: child, depth: depth + 1, path: [...path, key] });
    }
  }
  return null;
}

/** "attributes.a.a.…": a field path short enough for an error message. */
export function describeJsonPath(path: (string | number)[], shown = 6): string {
  const head = path.slice(0, shown).join(".");
  return path.length > shown ? `${head}.…` : head;
}
