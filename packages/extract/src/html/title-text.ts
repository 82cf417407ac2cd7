import type { ElementNode } from "./dom.js";
import { isTag, isText } from "./dom.js";
import { cleanText } from "./text.js";
import { withoutPrice } from "./title-price.js";

type ChildNode = ElementNode["children"][number];

const BLOCK = new Set([
  "address",
  "article",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "ol",
  "p",
  "section",
  "td",
  "th",
  "tr",
  "ul",
]);
/** Text for screen readers only, or not shown: "<span class="sr-only"> Details</span>". */
const HIDDEN_CLASS =
  /(^|[\s_-])(sr-only|screen-?reader(-text|-only)?|visually-?hidden|visuallyhidden|off-?(left|screen)|a11y-hidden|hidden|hide)($|[\s_-])/i;
/**
 * An element inside the title naming the brand (a line of its own above or before the name) or
 * showing the price.
 */
const BRAND_OR_PRICE = /brand|price/i;
/** Where an inline element starts or ends: a space there only between two letters or digits. */
const EDGE = "\u0001";
/**
 * Edges between two letters or digits, where a space goes (built from EDGE, a control character).
 */
const EDGES_IN_WORDS = new RegExp(
  String.raw`(?<=[\p{L}\p{N}])` + EDGE + String.raw`+(?=[\p{L}\p{N}])`,
  "gu",
);

/**
 * The product name a title element shows, as a shopper reads it: words in separate blocks or
 * elements stay apart ("MÖCKELBY" over "Table, oak" is "MÖCKELBY Table, oak", not
 * "MÖCKELBYTable"), text only screen readers get ("Details") and the brand's own element
 * inside the heading are left out, and so is a price shown in it ("Trail Runner 2 – 89,99 €").
 * Scripts and styles say nothing. `skip` leaves out more elements (a microdata name's nested
 * properties).
 */
export function titleText(
  el: ElementNode,
  skip: (el: ElementNode) => boolean = () => false,
): string | null {
  const parts: string[] = [];
  for (const child of el.children) visit(child, parts, skip);
  const text = cleanText(parts.join("").replace(EDGES_IN_WORDS, " ").replaceAll(EDGE, ""));
  return text === null ? null : withoutPrice(text);
}

function visit(node: ChildNode, parts: string[], skip: (el: ElementNode) => boolean): void {
  if (isText(node)) {
    parts.push(node.data);
    return;
  }
  if (!isTag(node)) return;
  const el = node;
  if (
    isHidden(el) ||
    skip(el) ||
    BRAND_OR_PRICE.test(
      `${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""} ${el.attribs["itemprop"] ?? ""}`,
    )
  )
    return;
  const edge = BLOCK.has(el.name) ? " " : EDGE;
  parts.push(edge);
  for (const child of el.children) visit(child, parts, skip);
  parts.push(edge);
}

function isHidden(el: ElementNode): boolean {
  const a = el.attribs;
  return (
    a["hidden"] !== undefined ||
    a["aria-hidden"] === "true" ||
    HIDDEN_CLASS.test(a["class"] ?? "") ||
    /display\s*:\s*none|visibility\s*:\s*hidden/i.test(a["style"] ?? "")
  );
}
