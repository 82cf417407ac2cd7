import type { Money } from "@catalog/values";
import { parsePrice } from "../price/index.js";
import { boundedText, isTag, type CheerioAPI, type ElementNode } from "./dom.js";
import { readJsonLd } from "./json-ld.js";
import { readMicrodata } from "./microdata.js";
import { pageIndex, tagged } from "./page-index.js";
import { readSchemaProduct } from "./schema-product.js";
import { all, firstText, hasType, isNode, nodes, type SchemaNode } from "./schema-node.js";
import { largestFromSrcset, resolveUrl } from "./urls.js";

/** One product a category or search page links to, with what the page shows of it. */
export interface ListingItem {
  url: string;
  title: string | null;
  price: Money | null;
  image: string | null;
}

export interface Listing {
  /** In page order, one per product URL, at most `limit`. */
  items: ListingItem[];
  /** How many the page lists in all. */
  total: number;
  /**
   * An ItemList in the markup, several Products in the markup (each with its own page), or the
   * page's product cards.
   */
  from: "list" | "products" | "cards";
}

/** Cards need a grid of at least this many to be taken for one: two links alike are common. */
const MIN_CARDS = 3;

/**
 * The products a category or search-results page lists: from markup when the page has it (a
 * JSON-LD or microdata ItemList, or several Products each with its own URL), else from its
 * product cards: sibling blocks that each link to one page of the same site, most of them with
 * a price (navigation, menus, breadcrumbs, pagination, headers and footers left out), the best
 * shown set of them. Null when there are fewer than two (markup) or three (cards).
 */
export function readListing(
  $: CheerioAPI,
  pageUrl: string,
  base: string,
  currency: string | null,
  limit: number,
): (Listing & { cards: Set<ElementNode> }) | null {
  const { items: cards, elements } = readCards($, pageUrl, base, currency);
  const { items: marked, from: markedFrom } = readMarkedList($, pageUrl, base, currency);
  let found: ListingItem[];
  let from: Listing["from"];
  if (marked.length >= 2) {
    // Markup is exact about which products; the cards may still show a picture or price it left
    // out.
    const byUrl = new Map(cards.map((c) => [c.url, c]));
    found = marked.map((item) => {
      const card = byUrl.get(item.url);
      return {
        url: item.url,
        title: item.title ?? card?.title ?? null,
        price: item.price ?? card?.price ?? null,
        image: item.image ?? card?.image ?? null,
      };
    });
    from = markedFrom;
  } else if (cards.length >= MIN_CARDS) {
    found = cards;
    from = "cards";
  } else {
    return null;
  }
  return { items: found.slice(0, limit), total: found.length, from, cards: elements };
}

// ---- Markup --------------------------------------------------------------------------------

const LIST_TYPES = ["ItemList", "OfferCatalog"];

function readMarkedList(
  $: CheerioAPI,
  pageUrl: string,
  base: string,
  currency: string | null,
): { items: ListingItem[]; from: "list" | "products" } {
  const roots = readJsonLd($);
  const lists: SchemaNode[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    for (const node of all(value)) {
      if (!isNode(node)) continue;
      if (hasType(node, LIST_TYPES)) lists.push(node);
      else
        for (const [key, inner] of Object.entries(node))
          if (key !== "itemListElement") walk(inner, depth + 1);
    }
  };
  walk(roots, 0);
  const fromLists = unique(
    lists.flatMap((list) =>
      listMembers(list).map((member) => itemOf(member.node, member.url, base, currency)),
    ),
    pageUrl,
  );
  if (fromLists.length >= 2) return { items: fromLists, from: "list" };
  // No list, but several products each with a page of its own: not this page, nor this page's
  // variants (the same address with ?variant=...), which one product page may mark up one by one.
  const products = [...roots.flatMap((root) => productNodes(root)), ...readMicrodata($).products];
  // Products all of one name are one product's variants, each at its own address.
  const names = new Set(products.map((node) => firstText(node["name"])));
  if (names.size === 1 && !names.has(null)) return { items: [], from: "products" };
  const page = withoutQuery(pageUrl);
  const items = unique(
    products.map((node) => itemOf(node, null, base, currency)),
    pageUrl,
  ).filter((item) => withoutQuery(item.url) !== page);
  return {
    items: items.length >= MIN_CARDS && items.length === products.length ? items : [],
    from: "products",
  };
}

/**
 * An ItemList's members in their stated order: ListItems (with `item` or `url`), Products, or bare
 * URLs.
 */
function listMembers(list: SchemaNode): { node: SchemaNode; url: string | null }[] {
  const members = all(list["itemListElement"]).map((element, index) => {
    if (typeof element === "string") return { node: {}, url: element, position: index };
    if (!isNode(element)) return null;
    const item = element["item"];
    const node = isNode(item) ? item : element;
    const url =
      typeof item === "string"
        ? item
        : (firstText(node["url"]) ?? firstText(element["url"]) ?? firstText(node["@id"]));
    const position = Number(firstText(element["position"]) ?? index);
    return { node, url, position: Number.isFinite(position) ? position : index };
  });
  return members
    .filter((m): m is NonNullable<typeof m> => m !== null)
    .sort((a, b) => a.position - b.position);
}

function productNodes(root: SchemaNode): SchemaNode[] {
  if (hasType(root, ["Product", "ProductGroup", "IndividualProduct"])) return [root];
  return nodes(root["@graph"]).filter((node) => hasType(node, ["Product", "IndividualProduct"]));
}

function itemOf(
  node: SchemaNode,
  givenUrl: string | null,
  base: string,
  currency: string | null,
): ListingItem | null {
  const url = resolveUrl(givenUrl ?? firstText(node["url"]) ?? firstText(node["@id"]), base);
  if (!url) return null;
  const found = readSchemaProduct(node, "json-ld", base);
  const price = found.values.price;
  const code = price?.currency ?? currency;
  return {
    url,
    title: found.values.title ?? null,
    price: price && code ? { amount: price.amount, currency: code } : null,
    image: found.values.images?.[0] ?? null,
  };
}

/**
 * One item per product page, in order, leaving out the page itself and links to elsewhere than
 * http(s).
 */
function unique(items: (ListingItem | null)[], pageUrl: string): ListingItem[] {
  const seen = new Set<string>([withoutFragment(pageUrl)]);
  const out: ListingItem[] = [];
  for (const item of items) {
    if (!item) continue;
    const key = withoutFragment(item.url);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...item, url: key });
  }
  return out;
}

const withoutFragment = (url: string) => url.replace(/#.*$/, "");

// ---- Cards ---------------------------------------------------------------------------------

/** Parts of a page that link everywhere but list no products. */
const CHROME_TAGS = new Set(["nav", "aside"]);
const PAGE_EDGE_TAGS = new Set(["header", "footer"]);
const CHROME_ROLES = new Set(["navigation", "banner", "contentinfo", "menu", "menubar"]);
const CHROME_TOKEN =
  /^(site-?)?(nav|navbar|navigation|menu|main-?menu|mega-?menu|breadcrumbs?|pagination|pager|paging|footer|header|filters?|facets?)$/i;
/** Links that act on a product or the visitor rather than open a product's page. */
const NOT_A_PRODUCT_PAGE =
  /\/(cart|basket|bag|checkout|wishlist|wish-list|compare|login|log-in|signin|sign-in|register|account|my-account|customer|search|help|contact|reviews?)(\/|$|\?)/i;
const TRACKING_PARAM = /^(utm_\w+|ref|ref_|gclid|fbclid|_pos|_sid|_ss|_psq|_fid|_v|position|pos)$/i;
const PRICE_NAME = /price/i;
const CURRENT_PRICE = /(sale|special|current|final|now|actual|discount)/i;
const FORMER_PRICE = /(old|was|regular|compare|strike|list|original|before|rrp|msrp)/i;
const CURRENCY_TEXT = /[$€£¥₹₩₽₺₪฿₫₴]|\b[A-Z]{3}\s?\d|\d\s?[A-Z]{3}\b|\b(kr|zł|Kč|Ft|lei|R\$)\b/;

type Mark = string | typeof MANY;
const MANY = Symbol("many links");

interface Cards {
  items: ListingItem[];
  /** The card elements, for telling what on the page lies outside them. */
  elements: Set<ElementNode>;
}

function readCards($: CheerioAPI, pageUrl: string, base: string, currency: string | null): Cards {
  const { elements } = pageIndex($);
  let host: string;
  try {
    host = new URL(pageUrl).host;
  } catch {
    return NO_CARDS;
  }
  const page = withoutFragment(pageUrl);

  // Document order visits a parent before its children, so chrome marks flow down in one pass.
  const chrome = new Set<ElementNode>();
  const inItem = new Set<ElementNode>();
  for (const el of elements) {
    const parent = el.parent as ElementNode | null;
    const parentChrome = parent !== null && chrome.has(parent);
    const parentInItem = parent !== null && inItem.has(parent);
    if (el.name === "article" || el.name === "li" || parentInItem) inItem.add(el);
    if (parentChrome || isChrome(el, parentInItem)) chrome.add(el);
  }

  const linkOf = new Map<ElementNode, string>();
  for (const a of tagged($, "a")) {
    if (chrome.has(a)) continue;
    const url = productLink(a.attribs["href"], base, host, page);
    if (url) linkOf.set(a, url);
  }
  if (linkOf.size < MIN_CARDS) return NO_CARDS;

  // Each element's links, reduced to "none", "one URL" or "several": children first.
  const marks = new Map<ElementNode, Mark>();
  for (let i = elements.length - 1; i >= 0; i--) {
    const el = elements[i]!;
    let mark: Mark | undefined = linkOf.get(el);
    for (const child of el.children) {
      const inner = marks.get(child as ElementNode);
      if (inner === undefined) continue;
      mark = mark === undefined || mark === inner ? inner : MANY;
      if (mark === MANY) break;
    }
    if (mark !== undefined) marks.set(el, mark);
  }

  // A card is the largest block around a link that links nowhere else; a grid, the cards of one
  // parent.
  const grids = new Map<ElementNode, Map<string, ElementNode>>();
  for (const [a, url] of linkOf) {
    let card = a;
    while (card.parent && marks.get(card.parent as ElementNode) === url)
      card = card.parent as ElementNode;
    const parent = card.parent as ElementNode | null;
    if (!parent) continue;
    const grid = grids.get(parent) ?? new Map<string, ElementNode>();
    if (!grid.has(url)) grid.set(url, card);
    grids.set(parent, grid);
  }
  // Menus, brand logos and reviews are grids of links too: products' cards show their price.
  let best: (Cards & { score: number }) | null = null;
  for (const grid of grids.values()) {
    if (grid.size < MIN_CARDS) continue;
    const items = [...grid].map(([url, card]) => cardItem(card, url, base, currency));
    if (items.filter((i) => i.price !== null).length * 2 < items.length) continue;
    const score = items.reduce(
      (sum, i) => sum + (i.price ? 3 : 0) + (i.image ? 1 : 0) + (i.title ? 1 : 0),
      0,
    );
    if (!best || score > best.score) best = { items, elements: new Set(grid.values()), score };
  }
  return best ?? NO_CARDS;
}

const NO_CARDS: Cards = { items: [], elements: new Set() };

function isChrome(el: ElementNode, insideItem: boolean): boolean {
  if (CHROME_TAGS.has(el.name)) return true;
  // A card may have a header and footer of its own; the page's are outside any item.
  if (PAGE_EDGE_TAGS.has(el.name) && !insideItem) return true;
  if (CHROME_ROLES.has((el.attribs["role"] ?? "").toLowerCase())) return true;
  const tokens = `${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`.split(/\s+/);
  return tokens.some((token) => CHROME_TOKEN.test(token));
}

/**
 * A link to another page of the same site that could be a product's, without tracking parameters.
 */
function productLink(
  href: string | undefined,
  base: string,
  host: string,
  page: string,
): string | null {
  const resolved = resolveUrl(href, base);
  if (!resolved) return null;
  let url: URL;
  try {
    url = new URL(resolved);
  } catch {
    return null;
  }
  if (url.host !== host || url.pathname === "/" || NOT_A_PRODUCT_PAGE.test(url.pathname))
    return null;
  url.hash = "";
  for (const name of [...url.searchParams.keys()])
    if (TRACKING_PARAM.test(name)) url.searchParams.delete(name);
  const clean = url.href;
  if (clean === page || withoutQuery(clean) === withoutQuery(page)) return null;
  return clean;
}

const withoutQuery = (url: string) => url.replace(/[?#].*$/, "");

function descendants(root: ElementNode): ElementNode[] {
  const out: ElementNode[] = [];
  const stack = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isTag(node)) continue;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ElementNode);
  }
  return out;
}

function cardItem(
  card: ElementNode,
  url: string,
  base: string,
  currency: string | null,
): ListingItem {
  const inside = descendants(card);
  const named = (el: ElementNode, pattern: RegExp) =>
    pattern.test(
      `${el.attribs["class"] ?? ""} ${el.attribs["itemprop"] ?? ""} ${el.attribs["data-testid"] ?? ""}`,
    );
  const text = (el: ElementNode, max: number) => boundedText(el, max) || null;

  const heading = inside.find((el) => /^h[1-6]$/.test(el.name));
  const titled = inside.find(
    (el) =>
      named(el, /(^|[\s_-])(title|name)([\s_-]|$)/i) && !/^(img|a)$/.test(el.name) && text(el, 300),
  );
  const anchors = inside.filter((el) => el.name === "a");
  if (card.name === "a") anchors.unshift(card);
  const anchorText =
    anchors
      .map((a) => text(a, 300) ?? a.attribs["title"] ?? "")
      .sort((x, y) => y.length - x.length)[0] || null;
  const img = inside.find((el) => el.name === "img") ?? null;
  const title =
    (heading && text(heading, 300)) ??
    (titled && text(titled, 300)) ??
    anchorText ??
    img?.attribs["alt"]?.trim() ??
    null;

  const priced = inside.filter((el) => named(el, PRICE_NAME) && text(el, 80));
  const current =
    priced.find((el) => named(el, CURRENT_PRICE)) ??
    priced.find((el) => !named(el, FORMER_PRICE)) ??
    priced[0];
  let priceText = current ? text(current, 80) : null;
  if (!priceText) {
    // No element says "price": a sum in the card's text, but not in its title ("Gifts under $500"
    // is a link, not a price).
    const whole = text(card, 600);
    const rest = whole && title ? whole.replace(title, " ") : whole;
    if (rest && CURRENCY_TEXT.test(rest))
      priceText = rest.slice(Math.max(0, rest.search(CURRENCY_TEXT) - 20));
  }
  const parsed = priceText ? parsePrice(priceText, currency ? { currency } : {}) : null;
  const code = parsed?.currency ?? null;

  const image = img
    ? resolveUrl(
        img.attribs["src"] && !img.attribs["src"].startsWith("data:")
          ? img.attribs["src"]
          : (img.attribs["data-src"] ??
              img.attribs["data-lazy-src"] ??
              img.attribs["data-original"] ??
              largestFromSrcset(img.attribs["srcset"] ?? img.attribs["data-srcset"])),
        base,
      )
    : null;
  return {
    url,
    title: title ? title.slice(0, 300) : null,
    price: parsed && code ? { amount: parsed.amount, currency: code } : null,
    image,
  };
}

const ADD_TO_CART =
  /(add to (cart|bag|basket|trolley)|buy (it )?now|in den (warenkorb|einkaufswagen)|ajouter au panier|añadir al carrito|aggiungi al carrello|adicionar ao carrinho|in winkelwagen|lägg i varukorgen|dodaj do koszyka|カートに入れる|加入购物车|加入購物車)/i;
const CART_FORM = /\/(cart|basket|bag)(\/add|\b)/i;

/**
 * Whether the page shows a product of its own outside the given cards: a price, or a control
 * that puts one product in the cart. A product page has both beside its "related products";
 * a category page keeps every price and cart button inside its cards. Navigation and page
 * chrome are not looked at (a mini cart's "$0.00" is no product).
 */
export function ownProductOutside(
  $: CheerioAPI,
  cards: Set<ElementNode>,
  currency: string | null,
): boolean {
  const { elements } = pageIndex($);
  const skip = new Set<ElementNode>();
  for (const el of elements) {
    const parent = el.parent as ElementNode | null;
    if (cards.has(el) || (parent !== null && skip.has(parent)) || isChrome(el, false)) {
      skip.add(el);
      continue;
    }
    const name = `${el.attribs["class"] ?? ""} ${el.attribs["itemprop"] ?? ""} ${el.attribs["id"] ?? ""}`;
    if (el.name === "form" && CART_FORM.test(el.attribs["action"] ?? "")) return true;
    if (
      el.name === "button" ||
      (el.name === "input" && /^(submit|button)$/i.test(el.attribs["type"] ?? ""))
    ) {
      const label = el.name === "input" ? (el.attribs["value"] ?? "") : (boundedText(el, 60) ?? "");
      if (ADD_TO_CART.test(label) || ADD_TO_CART.test(el.attribs["aria-label"] ?? "")) return true;
    }
    if (PRICE_NAME.test(name) && !FORMER_PRICE.test(name)) {
      const text = boundedText(el, 80);
      const price = text ? parsePrice(text, currency ? { currency } : {}) : null;
      if (price && Number(price.amount) > 0) return true;
    }
  }
  return false;
}
