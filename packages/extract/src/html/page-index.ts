import type { CheerioAPI, ElementNode } from "./dom.js";
import { isElementLike } from "./dom.js";

/**
 * Every element of a parsed page in document order, collected in one walk and shared by all
 * readers of the page. The readers ask it the questions they used to ask as CSS selectors
 * (each a walk over the whole tree through css-select): the same elements, in the same order,
 * at the cost of a loop over an array. The predicates below follow css-select's rules for HTML
 * documents (attribute values compared case-sensitively, except the few HTML treats otherwise,
 * such as `rel`; class tokens separated by any whitespace), so callers replacing a selector
 * keep its exact answer.
 */
export interface PageIndex {
  /** Elements (tags, scripts and styles, as css-select counts them), document order. */
  elements: ElementNode[];
  byTag: Map<string, ElementNode[]>;
  /** Positions in `elements` of the elements carrying each attribute, ascending. */
  byAttr: Map<string, number[]>;
}

type AnyNode = { type: string; children?: AnyNode[] };

const indexes = new WeakMap<CheerioAPI, PageIndex>();

export function pageIndex($: CheerioAPI): PageIndex {
  let index = indexes.get($);
  if (!index) {
    index = buildIndex($);
    indexes.set($, index);
  }
  return index;
}

function buildIndex($: CheerioAPI): PageIndex {
  const elements: ElementNode[] = [];
  const byTag = new Map<string, ElementNode[]>();
  const byAttr = new Map<string, number[]>();
  const root = $.root().get(0) as unknown as AnyNode;
  const stack: AnyNode[] = [];
  const pushChildren = (node: AnyNode): void => {
    const children = node.children;
    if (children)
      for (let i = children.length - 1; i >= 0; i--)
        if (children[i]?.children) stack.push(children[i] as AnyNode);
  };
  pushChildren(root);
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type === "tag" || node.type === "script" || node.type === "style") {
      const el = node as unknown as ElementNode;
      elements.push(el);
      const list = byTag.get(el.name);
      if (list) list.push(el);
      else byTag.set(el.name, [el]);
      const at = elements.length - 1;
      for (const name in el.attribs) {
        const positions = byAttr.get(name);
        if (positions) positions.push(at);
        else byAttr.set(name, [at]);
      }
    }
    pushChildren(node);
  }
  return { elements, byTag, byAttr };
}

/** `$("tag")`. */
export function tagged($: CheerioAPI, name: string): ElementNode[] {
  return pageIndex($).byTag.get(name) ?? [];
}

/** `$("[name]")`. */
export function withAttr($: CheerioAPI, name: string): ElementNode[] {
  const index = pageIndex($);
  return (index.byAttr.get(name) ?? []).map((at) => index.elements[at] as ElementNode);
}

/**
 * `$(selector)` for a selector given as a test of one element, and the attributes an element
 * must carry at least one of to pass it (so only those elements are tested).
 */
export function matching(
  $: CheerioAPI,
  attrs: readonly string[],
  test: (el: ElementNode) => boolean,
): ElementNode[] {
  const index = pageIndex($);
  const lists = attrs.map((name) => index.byAttr.get(name) ?? []);
  if (lists.length === 1)
    return (lists[0] as number[]).map((at) => index.elements[at] as ElementNode).filter(test);
  const marked = new Uint8Array(index.elements.length);
  for (const list of lists) for (const at of list) marked[at] = 1;
  const out: ElementNode[] = [];
  for (let at = 0; at < marked.length; at++) {
    if (marked[at] === 1 && test(index.elements[at] as ElementNode))
      out.push(index.elements[at] as ElementNode);
  }
  return out;
}

/** `$(selector).first()`, as `matching`. */
export function firstMatching(
  $: CheerioAPI,
  attrs: readonly string[],
  test: (el: ElementNode) => boolean,
): ElementNode | undefined {
  return matching($, attrs, test)[0];
}

/** `[name]`. */
export function hasAttr(el: ElementNode, name: string): boolean {
  return el.attribs[name] !== undefined;
}

/** `[name*=value]`. */
export function attrContains(el: ElementNode, name: string, value: string): boolean {
  return el.attribs[name]?.includes(value) ?? false;
}

const tokenPatterns = new Map<string, RegExp>();

/** `.token` (name "class") or `[name~=token]`. */
export function hasToken(el: ElementNode, name: string, token: string): boolean {
  const value = el.attribs[name];
  if (value === undefined || !value.includes(token)) return false;
  let pattern = tokenPatterns.get(token);
  if (!pattern) {
    pattern = new RegExp(`(?:^|\\s)${token.replace(/[-[\]{}()*+?.,\\^$|#\s]/g, "\\$&")}(?:$|\\s)`);
    tokenPatterns.set(token, pattern);
  }
  return pattern.test(value);
}

/** The next element sibling, as cheerio's `.next()` (scripts and styles count). */
export function nextElement(el: ElementNode): ElementNode | null {
  let node = el.next;
  while (node && !isElementLike(node)) node = node.next;
  return isElementLike(node) ? node : null;
}
