import type { ElementNode } from "./dom.js";
import { isTag, isText } from "./dom.js";
import { nowMarked } from "./price-markers.js";

// Elements whose text the shopper does not read as the price.
const UNREAD = new Set(["noscript", "template", "del", "s", "strike"]);
// Crossed out by its class: the old price beside the current one.
const STRUCK_CLASS = /strike|line-?through|crossed/i;
// "Was £55.00 Now £48.99": the words before the price paid now.
const NOW_SAID = /\b(now|jetzt|nur noch|maintenant|ahora|ora|nu|sale|offer)\b\s*:?\s*/gi;

/**
 * A price element's text as it reads, or null when it runs past `max` characters (whitespace
 * counted as the single space it shows as: markup indentation is no text). Cents set apart in
 * an element of their own, raised or small ("$229<span>99</span>", "63<sup>07</sup> Lei"),
 * join the units with a decimal separator: the page shows 229.99, not 22999. Scripts, styles
 * and noscript say nothing; struck-through children (`<s>`, `<del>`, a strike-named class, a
 * line-through style) are the old price, left out.
 */
export function priceText(el: ElementNode, max: number): string | null {
  const out = { text: "" };
  if (!visit(el, out, max)) return null;
  const text = out.text.trim();
  return text.length <= max ? text : null;
}

function visit(node: ElementNode, out: { text: string }, max: number): boolean {
  for (const child of node.children) {
    if (isText(child)) {
      const data = child.data.replace(/\s+/g, " ");
      out.text += out.text.endsWith(" ") && data.startsWith(" ") ? data.slice(1) : data;
      // Past max + 2 even a leading and a trailing space trimmed leave too much.
      if (out.text.length > max + 2) return false;
      continue;
    }
    if (!isTag(child)) continue;
    const el = child;
    if (UNREAD.has(el.tagName) || isStruck(el)) continue;
    const cents = centsOf(el);
    if (cents !== null && /\d$/.test(out.text) && !/[.,]\d{1,2}$/.test(out.text)) {
      // "1.299" + "00": the separator not used between thousands marks the cents.
      const thousands = /([.,])\d{3}$/.exec(out.text)?.[1];
      out.text += (thousands === "." ? "," : ".") + cents;
      continue;
    }
    if (!visit(el, out, max)) return false;
  }
  return true;
}

/** Crossed out by a strike-named class or a line-through style. */
export function isStruck(el: ElementNode): boolean {
  const cls = el.attribs["class"];
  const style = el.attribs["style"];
  return (
    (cls !== undefined && STRUCK_CLASS.test(cls)) ||
    (style !== undefined && /line-through/i.test(style))
  );
}

/**
 * In a container showing two prices, the text of the one paid now: a child marked so ("sale",
 * "now", "current"), else the text after the last word saying so ("Was £55.00 Now £48.99").
 */
export function nowText(el: ElementNode, text: string, max: number): string | null {
  const marked = nowChild(el, 3);
  if (marked) return priceText(marked, max);
  let after: number | null = null;
  for (const said of text.matchAll(NOW_SAID)) after = said.index + said[0].length;
  return after === null ? null : text.slice(after);
}

function nowChild(el: ElementNode, depth: number): ElementNode | null {
  for (const child of el.children) {
    if (!isTag(child)) continue;
    if (nowMarked(child)) return child;
    const inner = depth > 1 ? nowChild(child, depth - 1) : null;
    if (inner) return inner;
  }
  return null;
}

/** Two digits alone in an element: the cents of a price written "229<sup>99</sup>". */
function centsOf(el: ElementNode): string | null {
  const only = el.children[0];
  if (el.children.length !== 1 || !isText(only)) return null;
  const text = only.data.trim();
  return /^\d{2}$/.test(text) ? text : null;
}
