import { boundedText, isTag, type CheerioAPI, type ElementNode } from "./dom.js";
import { pageIndex } from "./page-index.js";
import { buysByWords, CONTACT, namesBuying, NOTIFY, OTHER_ACTION, PRE_ORDER } from "./buy-words.js";
import { OUT_OF_STOCK } from "./stock-words.js";
import { cleanText } from "./text.js";

const BUTTON_LIKE = /btn|button|cart|basket|buy|purchase|kaufen|panier|carrello|order/i;

/** How far after the title (in elements) the product's own buy control sits, for markup's sake. */
const NEAR_TITLE = 300;

const HEADING = /^h[1-6]$/;

/** What one control says: a stock state, "disabled" (a buy control that cannot be used), or null. */
type ControlState = "InStock" | "OutOfStock" | "PreOrder" | "disabled" | null;

/**
 * The product's buy button (the first after the title, else the first before it); without one,
 * a classified ad's contact button. A control named for buying but not saying so in words counts
 * only after the title: before it, it is the header's cart.
 */
export function controlState(
  $: CheerioAPI,
  title: ElementNode | null,
): { value: string; method: string } | null {
  const elements = pageIndex($).elements;
  const start = title ? Math.max(elements.indexOf(title), 0) : 0;
  // A disabled buy button is the product's: it says nothing (it may wait for a size), and no
  // later control (a hidden notify-me, a related product's) speaks in its place.
  const bought =
    firstControl(elements, start, elements.length, (el) => buttonState(el, true)) ??
    firstControl(elements, 0, start, (el) => buttonState(el, false));
  if (bought === "disabled") return null;
  if (bought) return { value: bought, method: "buy button" };
  const contact =
    firstControl(elements, start, elements.length, contactState) ??
    firstControl(elements, 0, start, contactState);
  return contact ? { value: contact, method: "contact button" } : null;
}

/**
 * Whether the first control after the title that says anything, close to it and before the next
 * heading ("Others also viewed" over related products' tiles), is an enabled buy control: the
 * page offers the product, whatever stale markup says.
 */
export function offeredNearTitle($: CheerioAPI, title: ElementNode | null): boolean {
  if (!title) return false;
  const elements = pageIndex($).elements;
  const start = elements.indexOf(title);
  if (start < 0) return false;
  const end = Math.min(elements.length, start + NEAR_TITLE);
  for (let i = start + 1; i < end; i++) {
    const el = elements[i] as ElementNode;
    if (HEADING.test(el.name)) return false;
    if (el.name !== "button" && el.name !== "input" && el.name !== "a") continue;
    const state = buttonState(el, true);
    if (state) return state === "InStock";
  }
  return false;
}

function firstControl(
  elements: ElementNode[],
  from: number,
  to: number,
  read: (el: ElementNode) => string | null,
): string | null {
  for (let i = from; i < to; i++) {
    const el = elements[i] as ElementNode;
    if (el.name !== "button" && el.name !== "input" && el.name !== "a") continue;
    const state = read(el);
    if (state) return state;
  }
  return null;
}

/**
 * A button, a submit or image input, or a link that acts rather than leads somewhere: named as a
 * button or cart, or running a script (`href="javascript:…"`, `onclick`).
 */
function isControl(el: ElementNode): boolean {
  const a = el.attribs;
  if (el.name === "input")
    return a["type"] === "submit" || a["type"] === "button" || a["type"] === "image";
  if (el.name !== "a") return true;
  return (
    BUTTON_LIKE.test(`${a["class"] ?? ""} ${a["id"] ?? ""} ${a["role"] ?? ""}`) ||
    /^\s*javascript:/i.test(a["href"] ?? "") ||
    a["onclick"] !== undefined
  );
}

/** `disabled`, `aria-disabled="true"`, or a class saying disabled or sold out. */
function isDisabled(el: ElementNode): boolean {
  const a = el.attribs;
  return (
    a["disabled"] !== undefined ||
    a["aria-disabled"] === "true" ||
    /(^|[\s_-])(disabled|sold-?out|out-?of-?stock|unavailable)(\s|$)/i.test(a["class"] ?? "")
  );
}

/** The first image inside a control (a few levels down), for image buttons. */
function imageIn(el: ElementNode, depth = 0): ElementNode | null {
  for (const child of el.children) {
    if (!isTag(child)) continue;
    if (child.name === "img") return child;
    const inner = depth < 2 ? imageIn(child, depth + 1) : null;
    if (inner) return inner;
  }
  return null;
}

/**
 * A control's words (its value, text, aria-label, title, or its image's alt), without closing
 * punctuation; null if none or too long.
 */
function controlLabel(el: ElementNode): string | null {
  // The buy pass and the contact pass may both read a page's every control: read each once.
  let label = labels.get(el);
  if (label === undefined) {
    label = readLabel(el);
    labels.set(el, label);
  }
  return label;
}

const labels = new WeakMap<ElementNode, string | null>();

function readLabel(el: ElementNode): string | null {
  const a = el.attribs;
  const text = cleanText(
    el.name === "input"
      ? a["value"] || a["alt"] || a["title"]
      : boundedText(el, 40) || a["aria-label"] || a["title"] || imageIn(el)?.attribs["alt"],
  );
  if (!text || text.length > 40) return null;
  return text.replace(/[!.…]+$/u, "").trim();
}

/**
 * Whether the control is named for buying: its id or class, its image's file name, or its
 * wrapper's name when it is the wrapper's only element and the name says button ("buyBtn").
 */
function namedForBuying(el: ElementNode): boolean {
  const a = el.attribs;
  const parent = el.parent;
  const wrapper =
    isTag(parent) &&
    parent.children.filter(isTag).length === 1 &&
    namesBuying(`${parent.attribs["id"] ?? ""} ${parent.attribs["class"] ?? ""}`, true);
  const image = el.name === "input" ? a["src"] : imageIn(el)?.attribs["src"];
  const file = image?.split(/[?#]/)[0]?.split("/").pop() ?? "";
  return wrapper || namesBuying(`${a["id"] ?? ""} ${a["class"] ?? ""} ${file}`);
}

/**
 * What one control says about the product. Its words first (sold out, notify me, pre-order, a
 * buy phrase); else, with `byName`, its name, unless its words name another action.
 */
function buttonState(el: ElementNode, byName: boolean): ControlState {
  if (!isControl(el)) return null;
  const label = controlLabel(el);
  if (label !== null) {
    if (OUT_OF_STOCK.test(label) || NOTIFY.test(label)) return "OutOfStock";
    if (PRE_ORDER.test(label)) return "PreOrder";
  }
  const buys =
    (label !== null && buysByWords(label)) ||
    (byName && (label === null || !OTHER_ACTION.test(label)) && namedForBuying(el));
  if (!buys) return null;
  return isDisabled(el) ? "disabled" : "InStock";
}

function contactState(el: ElementNode): string | null {
  if (!isControl(el) || isDisabled(el)) return null;
  const label = controlLabel(el);
  return label !== null && CONTACT.test(label) ? "InStock" : null;
}
