import type { Cheerio, CheerioAPI } from "cheerio/slim";

/** cheerio's element type, named without depending on domhandler directly. */
export type ElementNode = ReturnType<ReturnType<CheerioAPI["root"]>["find"]> extends Cheerio<infer T> ? T : never;
export type Elements = Cheerio<ElementNode>;
export type { CheerioAPI };

type ChildNode = ElementNode["children"][number];

/**
 * The text of an element, or null when it runs past `max` characters. Reading stops there,
 * so asking every price- or stock-named container for its text stays linear in the page.
 */
export function boundedText(el: ElementNode, max: number): string | null {
  const text = { out: "" };
  for (const child of el.children) if (!visitBounded(child, max, text)) return null;
  const out = text.out.replace(/\s+/g, " ").trim();
  return out.length <= max ? out : null;
}

// A plain function, not a closure made per call: this runs for many elements of every page.
function visitBounded(node: ChildNode, max: number, text: { out: string }): boolean {
  if (node.type === "text") {
    text.out += (node as unknown as { data: string }).data;
    return text.out.length <= max * 4 || text.out.replace(/\s+/g, " ").trim().length <= max;
  }
  if (node.type !== "tag") return true;
  const tag = (node).tagName;
  if (tag === "script" || tag === "style" || tag === "noscript") return true;
  for (const child of (node).children) if (!visitBounded(child, max, text)) return false;
  return true;
}

/** Every element in document order, with its position. */
export function documentOrder(root: ElementNode[]): Map<ElementNode, number> {
  const order = new Map<ElementNode, number>();
  const stack: ElementNode[] = [...root].reverse();
  while (stack.length > 0) {
    const el = stack.pop() as ElementNode;
    order.set(el, order.size);
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i];
      if (child && child.type === "tag") stack.push(child);
    }
  }
  return order;
}
