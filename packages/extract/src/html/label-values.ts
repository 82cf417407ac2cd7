import type { CheerioAPI, ElementNode } from "./dom.js";
import { nextElement, pageIndex } from "./page-index.js";
import { cleanText } from "./text.js";

/**
 * Product details printed as "label: value" (spec tables, definition lists, bullet lists),
 * in the languages of the shops we read. Order matters: the first label found for a field
 * wins, so the labels that name the field most precisely come first.
 */
const LABELS: { field: "sku" | "mpn" | "brand" | "gtin"; pattern: RegExp }[] = [
  { field: "sku", pattern: /^(sku|asin|art(ikel)?[.\s-]*(nr|nummer|no)\.?|artikelnummer|item\s*(no\.?|number|#|code)|product\s*(code|id|no\.?|number)|numero\s+articolo|codice\s+articolo|c[oó]digo(\s+de\s+producto)?|r[ée]f[ée]rence|ref\.?|varenummer|artikelnr\.?|cod\.?\s*produs|[šs]ifra|k[oó]d(a)?(\s+produktu)?|cikksz[aá]m|tuotenumero|stock\s+code|product\s+ref(erence)?|商品編號|商品番号|品番)$/i },
  { field: "mpn", pattern: /^(mpn|(item\s+)?model\s*(number|no\.?)|part\s*number|modellnummer|herstellernummer|numero\s+(di\s+)?modello|n[uú]mero\s+de\s+modelo|r[ée]f[ée]rence\s+du\s+fabricant)$/i },
  { field: "gtin", pattern: /^(gtin(-?\d+)?|ean(-?13)?|upc|isbn(-1[03])?|barcode)$/i },
  { field: "brand", pattern: /^(brand|brand\s+name|marke|marca|marque|merk|m[aä]rke|brand\/manufacturer|hersteller|fabricante|produttore|manufacturer)$/i },
];

export type LabelField = (typeof LABELS)[number]["field"];

const LABEL_TAGS = new Set(["th", "dt", "td", "li", "span", "label", "strong", "b", "div", "p", "h3", "h4"]);

type ChildNode = ElementNode["children"][number];

/** Text of an element down to `depth` levels, or "" when it is longer than a label can be:
 * labels are short, and reading the whole text of every container would be quadratic. */
function shallowText(el: ElementNode, depth: number): string {
  const text = { out: "" };
  for (const child of el.children) if (!visitShallow(child, 0, depth, text)) return "";
  return text.out;
}

// A plain function, not a closure made per call: this runs for most elements of every page.
function visitShallow(node: ChildNode, level: number, depth: number, text: { out: string }): boolean {
  if (node.type === "text") text.out += (node as unknown as { data: string }).data;
  else if (node.type === "tag") {
    if (level >= depth) return false;
    for (const child of (node as ElementNode).children) if (!visitShallow(child, level + 1, depth, text)) return false;
  }
  return text.out.length <= 120;
}

export function findLabelledValues($: CheerioAPI): Map<LabelField, string> {
  const out = new Map<LabelField, string>();
  for (const el of pageIndex($).elements) {
    if (!LABEL_TAGS.has(el.name)) continue;
    const raw = shallowText(el, 2);
    // Nothing but whitespace (most containers): no label, and no need to clean it.
    if (!/\S/.test(raw)) continue;
    const label = cleanText(raw) ?? "";
    if (label.length === 0 || label.length > 60) continue;
    const colon = label.match(/^([^:：]{2,40})\s*[:：]\s*(.*)$/u);
    const name = (colon ? colon[1] : label)?.replace(/[\s:：#]+$/u, "").trim() ?? "";
    const rule = LABELS.find((l) => l.pattern.test(name));
    if (!rule || out.has(rule.field)) continue;
    const inline = colon?.[2]?.trim();
    const value = inline || valueAfter(el);
    if (value && plausible(rule.field, value)) out.set(rule.field, value);
  }
  return out;
}

/** The value next to a label: the next sibling element (td after th, dd after dt), or what
 * follows the label inside its parent. */
function valueAfter(el: ElementNode): string | null {
  const sibling = nextElement(el);
  const next = sibling ? cleanText(shallowText(sibling, 3)) : null;
  if (next) return next;
  const parent = el.parent?.type === "tag" ? (el.parent as ElementNode) : null;
  const parentText = parent ? cleanText(shallowText(parent, 3)) ?? "" : "";
  const own = cleanText(shallowText(el, 2)) ?? "";
  const rest = parentText.startsWith(own) ? parentText.slice(own.length).replace(/^[\s:：]+/u, "") : "";
  return rest || null;
}

function plausible(field: LabelField, value: string): boolean {
  if (field === "brand") return value.length <= 50 && !/[{}<>]/.test(value);
  if (field === "gtin") return /^\d{8,14}$/.test(value.replace(/[\s-]/g, ""));
  return /^[\p{L}\d][\p{L}\d ._\/-]{1,40}$/u.test(value) && /\d/.test(value);
}
