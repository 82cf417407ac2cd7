import type { Cheerio, CheerioAPI } from "cheerio/slim";

/** cheerio's element type, named without depending on domhandler directly. */
export type ElementNode =
  ReturnType<ReturnType<CheerioAPI["root"]>["find"]> extends Cheerio<infer T> ? T : never;
export type Elements = Cheerio<ElementNode>;
export type { CheerioAPI };

type ChildNode = ElementNode["children"][number];
type DomNode = ChildNode | NonNullable<ElementNode["parent"]>;

// domhandler marks a node's kind with an enum of strings ("tag", "text", "script", "root"...);
// these read it as that string, without depending on domhandler's enum.
const kindOf = (node: DomNode): string => node.type;
const ELEMENT_KINDS = new Set(["tag", "script", "style"]);

/** Whether a node is a plain element (not a script or style). */
export const isTag = (node: DomNode | null | undefined): node is ElementNode =>
  node != null && kindOf(node) === "tag";
/** Whether a node is text. */
export const isText = (node: DomNode | null | undefined): node is ChildNode & { data: string } =>
  node != null && kindOf(node) === "text";
/** Whether a node is an element as cheerio counts them: tags, scripts and styles. */
export const isElementLike = (node: DomNode | null | undefined): node is ElementNode =>
  node != null && ELEMENT_KINDS.has(kindOf(node));
/** Whether a node is the document itself. */
export const isRoot = (node: DomNode | null | undefined): boolean =>
  node != null && kindOf(node) === "root";

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
  if (isText(node)) {
    text.out += node.data;
    return text.out.length <= max * 4 || text.out.replace(/\s+/g, " ").trim().length <= max;
  }
  if (!isTag(node)) return true;
  const tag = node.tagName;
  if (tag === "script" || tag === "style" || tag === "noscript") return true;
  for (const child of node.children) if (!visitBounded(child, max, text)) return false;
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
      if (isTag(child)) stack.push(child);
    }
  }
  return order;
}
