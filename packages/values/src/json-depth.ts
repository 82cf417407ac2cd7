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
  if (typeof value !== "object" || value === null) return null;
  const stack: Step[] = [{ node: value, depth: 1, key: "", parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if (step.depth > maxDepth) return pathOf(step);
    const { node, depth } = step;
    // Arrays by index, without the key iterator: this runs on every imported row.
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child === "object" && child !== null)
          stack.push({ node: child, depth: depth + 1, key: i, parent: step });
      }
    } else {
      for (const key of Object.keys(node)) {
        const child: unknown = (node as Record<string, unknown>)[key];
        if (typeof child === "object" && child !== null)
          stack.push({ node: child, depth: depth + 1, key, parent: step });
      }
    }
  }
  return null;
}

/** An object or array on pathTooDeep's walk, linked to its parent: a path is built only when refused. */
interface Step {
  node: object;
  depth: number;
  key: string | number;
  parent: Step | null;
}

function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Step | null = step; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** "attributes.a.a.…": a field path short enough for an error message. */
export function describeJsonPath(path: (string | number)[], shown = 6): string {
  const head = path.slice(0, shown).join(".");
  return path.length > shown ? `${head}.…` : head;
}
