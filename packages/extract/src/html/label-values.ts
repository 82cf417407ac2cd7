import type { CheerioAPI, ElementNode } from "./dom.js";
import { isTag, isText } from "./dom.js";
import { nextElement, pageIndex } from "./page-index.js";
import { cleanText } from "./text.js";

/** A colon or a spaced dash: the only texts that can hold "Label: value" (a cheap test first). */
const SEPARATED = /[:：]|\s[-–—]\s/u;

/**
 * Product details printed as "label: value" (spec tables, definition lists, bullet lists),
 * in the languages of the shops we read. Order matters: the first label found for a field
 * wins, so the labels that name the field most precisely come first.
 */
const LABELS: {
  field: "sku" | "mpn" | "brand" | "gtin" | "availability";
  pattern: RegExp;
  value?: RegExp;
}[] = [
  {
    field: "sku",
    pattern: words([
      "sku",
      "asin",
      "art(ikel)?[.\\s-]*(nr|nummer|no)\\.?",
      "article\\s*(number|no\\.?|code|#)",
      "artikelnummer",
      "artikelnr\\.?",
      "item\\s*(no\\.?|number|#|code)",
      "product\\s*(code|id|no\\.?|number)",
      "stock\\s+code",
      "order\\s*(number|no\\.?|code)",
      "bestell(nummer|[.\\s-]*nr\\.?)",
      "product\\s+ref(erence)?",
      "ref(erence)?\\.?",
      "r[ée]f[ée]rence",
      "r[ée]f\\.?",
      "numero\\s+articolo",
      "codice(\\s+articolo|\\s+prodotto)?",
      "c[oó]digo(\\s+(de\\s+)?(producto|produto|artículo))?",
      "varenummer",
      "varenr\\.?",
      "artikelnr",
      "cod\\.?\\s*produs",
      "[šs]ifra(\\s+proizvoda)?",
      "k[oó]d(a)?(\\s+(produktu|tovaru|zbo[žz][íi]))?",
      "kod\\s+produktu",
      "numer\\s+katalogowy",
      "cikksz[aá]m",
      "term[ée]kk[oó]d",
      "tuotenumero",
      "tuotekoodi",
      "produkta\\s+kods",
      "kods",
      "tootekood",
      "prek[ėe]s\\s+kodas",
      "artikul",
      "артикул",
      "код(\\s+товара)?",
      "商品編號",
      "商品编号",
      "商品番号",
      "品番",
      "상품\\s*번호",
      "상품\\s*코드",
    ]),
  },
  // A classified ad's number is its reference. "Anzeige" and "annonce" also mean "display" or
  // "notice": only a long plain number under them is an ad number.
  {
    field: "sku",
    pattern: words([
      "ad\\s*(id|no\\.?|number|#)",
      "listing\\s*(id|no\\.?|number)",
      "post(ing)?\\s*id",
      "anzeigen?[-\\s]*(nr\\.?|nummer|id)",
      "n[°º]\\s*d['’]annonce",
      "numero\\s+annuncio",
      "n[úu]mero\\s+de\\s+anuncio",
      "numer\\s+ogłoszenia",
    ]),
  },
  {
    field: "sku",
    pattern: words([
      "anzeige",
      "annonce",
      "annuncio",
      "anuncio",
      "ogłoszenie",
      "inzer[áa]t",
      "hirdet[ée]s",
    ]),
    value: /^\d{5,12}$/,
  },
  {
    field: "mpn",
    pattern: words([
      "mpn",
      "(item\\s+)?model\\s*(number|no\\.?)",
      "part\\s*number",
      "modellnummer",
      "herstellernummer",
      "numero\\s+(di\\s+)?modello",
      "n[uú]mero\\s+de\\s+modelo",
      "r[ée]f[ée]rence\\s+du\\s+fabricant",
      "型番",
    ]),
  },
  {
    field: "gtin",
    pattern: words([
      "gtin(-?\\d+)?",
      "ean(-?13)?(\\s+code)?",
      "upc",
      "isbn(-1[03])?",
      "barcode",
      "jan(\\s+code)?",
      "ean-kod",
      "ean\\s+kods",
      "vöötkood",
      "штрихкод",
    ]),
  },
  {
    field: "brand",
    pattern: words([
      "brand",
      "brand\\s+name",
      "brand/manufacturer",
      "manufacturer",
      "make",
      "make/manufacturer",
      "manufacturer/make",
      "marke",
      "hersteller",
      "marca",
      "marque",
      "fabricant",
      "merk",
      "m[aä]rke",
      "fabrikant",
      "fabricante",
      "produttore",
      "producent",
      "marka",
      "m[aá]rka",
      "gy[aá]rt[oó]",
      "valmistaja",
      "merkki",
      "tillverkare",
      "varum[aä]rke",
      "m[æe]rke",
      "produsent",
      "znamka",
      "proizvajalec",
      "proizvo[đd]a[čc]",
      "zna[čc]ka",
      "v[ýy]robce",
      "v[ýy]robca",
      "produc[ăa]tor",
      "marc[ăa]",
      "ra[žz]ot[āa]js",
      "z[īi]mols",
      "kaubam[äa]rk",
      "tootja",
      "prek[ėe]s\\s+ženklas",
      "gamintojas",
      "бренд",
      "марка",
      "производитель",
      "виробник",
      "κατασκευαστής",
      "μάρκα",
      "品牌",
      "ブランド",
      "メーカー",
      "브랜드",
      "제조사",
    ]),
  },
  {
    field: "availability",
    pattern: words([
      "availability",
      "stock",
      "in\\s+stock",
      "verf[üu]gbarkeit",
      "lieferbarkeit",
      "lagerbestand",
      "disponibilit[ée]",
      "disponibilit[àa]",
      "disponibilidad",
      "disponibilidade",
      "beschikbaarheid",
      "voorraad",
      "dost[eę]pno[śs][ćc]",
      "dostupnost",
      "razpolo[žz]ljivost",
      "pieejam[īi]ba",
      "saadavus",
      "laoseis",
      "prieinamumas",
      "el[ée]rhet[őo]s[ée]g",
      "k[ée]szlet",
      "saatavuus",
      "varastossa",
      "tillg[äa]nglighet",
      "lagerstatus",
      "p[åa] lager",
      "наличие",
      "в наличии",
      "наявність",
      "διαθεσιμότητα",
      "库存",
      "庫存",
      "在庫",
      "재고",
    ]),
  },
];

/** One pattern matching any of the labels, whole. */
function words(labels: string[]): RegExp {
  return new RegExp(`^(${labels.join("|")})$`, "iu");
}

export type LabelField = (typeof LABELS)[number]["field"];

const LABEL_TAGS = new Set([
  "th",
  "dt",
  "td",
  "li",
  "span",
  "label",
  "strong",
  "b",
  "div",
  "p",
  "h3",
  "h4",
]);

type ChildNode = ElementNode["children"][number];

/** Text of an element down to `depth` levels, or "" when it is longer than a label can be:
 * labels are short, and reading the whole text of every container would be quadratic. */
function shallowText(el: ElementNode, depth: number): string {
  const text = { out: "" };
  for (const child of el.children) if (!visitShallow(child, 0, depth, text)) return "";
  return text.out;
}

// A plain function, not a closure made per call: this runs for most elements of every page.
function visitShallow(
  node: ChildNode,
  level: number,
  depth: number,
  text: { out: string },
): boolean {
  if (isText(node)) text.out += node.data;
  else if (isTag(node)) {
    if (level >= depth) return false;
    for (const child of node.children)
      if (!visitShallow(child, level + 1, depth, text)) return false;
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
    // "Label: value", or "Label - value" with a spaced dash ("Art.-Nr." keeps its own).
    const colon = SEPARATED.test(label)
      ? label.match(/^([^:：]{2,40}?)\s*(?:[:：]|\s[-–—]\s)\s*(.*)$/u)
      : null;
    const name = (colon ? colon[1] : label)?.replace(/[\s:：#]+$/u, "").trim() ?? "";
    const rule = LABELS.find((l) => l.pattern.test(name));
    if (!rule || out.has(rule.field) || isLink(el)) continue;
    const inline = colon?.[2]?.trim();
    // "EAN: 6935364088101." in a bullet list: the sentence's full stop is not part of the value.
    const value = codeBeforeProse(rule.field, (inline || valueAfter(el))?.replace(/[.;,]+$/, ""));
    if (value && plausible(rule.field, value) && (!rule.value || rule.value.test(value)))
      out.set(rule.field, value);
  }
  return out;
}

/**
 * A label that is a link ("<div><a href=/c/brands>Brand</a></div>") is a menu entry, not a field's
 * name.
 */
function isLink(el: ElementNode): boolean {
  let only: ElementNode | null = null;
  for (const child of el.children) {
    if (isText(child)) {
      if (/\S/.test(child.data)) return false;
    } else if (isTag(child)) {
      if (only) return false;
      only = child;
    }
  }
  return only?.name === "a" && only.attribs["href"] !== undefined;
}

/** The value next to a label: the next sibling element (td after th, dd after dt), or what
 * follows the label inside its parent. */
function valueAfter(el: ElementNode): string | null {
  const sibling = nextElement(el);
  const next = sibling ? cleanText(shallowText(sibling, 3)) : null;
  if (next) return next;
  const parent = isTag(el.parent) ? el.parent : null;
  const parentText = parent ? (cleanText(shallowText(parent, 3)) ?? "") : "";
  const own = cleanText(shallowText(el, 2)) ?? "";
  const rest = parentText.startsWith(own)
    ? parentText.slice(own.length).replace(/^[\s:：]+/u, "")
    : "";
  return rest || null;
}

/** "55012 – usually dispatched within two days": a code followed by prose is the code. */
function codeBeforeProse(field: LabelField, value: string | undefined): string | undefined {
  if (!value || (field !== "sku" && field !== "mpn") || plausible(field, value)) return value;
  const prose = /^(\S*\d\S*)\s+[-–—,(]?\s*\p{L}+\s+\p{L}+/u.exec(value);
  return prose?.[1]?.replace(/[.;,:]+$/, "") ?? value;
}

function plausible(field: LabelField, value: string): boolean {
  if (field === "availability") return value.length <= 80;
  if (field === "brand") return value.length <= 50 && !/[{}<>]/.test(value);
  if (field === "gtin") return /^\d{8,14}$/.test(value.replace(/[\s-]/g, ""));
  return /^[\p{L}\d][\p{L}\d ._/-]{1,40}$/u.test(value) && /\d/.test(value);
}
