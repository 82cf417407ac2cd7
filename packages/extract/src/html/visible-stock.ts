import { boundedText, type CheerioAPI, type ElementNode } from "./dom.js";
import { attrContains, matching, pageIndex } from "./page-index.js";
import { cleanText } from "./text.js";

/** Phrases a shop prints when the product cannot be bought now, in the languages we read. */
const OUT_OF_STOCK = new RegExp(
  [
    "out of stock",
    "sold out",
    "currently unavailable",
    "not available",
    "unavailable",
    "no longer available",
    "nicht (mehr )?verf[üu]gbar",
    "nicht (mehr )?lieferbar",
    "nicht (mehr )?erh[äa]ltlich",
    "ausverkauft",
    "vergriffen",
    "non disponibile",
    "esaurito",
    "no disponible",
    "agotado",
    "sin stock",
    "[ée]puis[ée]",
    "indisponible",
    "rupture de stock",
    "niet (op voorraad|leverbaar|beschikbaar)",
    "uitverkocht",
    "brak w magazynie",
    "niedostępny",
    "wyprzedan[ya]",
    "slutsåld",
    "slut i lager",
    "udsolgt",
    "utsolgt",
    "ikke på lager",
    "esgotado",
    "indispon[ií]vel",
    "нет в наличии",
    "распродано",
    "немає в наявності",
    "nen[ií] skladem",
    "vyprodáno",
    "ni na zalogi",
    "nincs készleten",
    "elfogyott",
    "loppuunmyyty",
    "ei varastossa",
    "stokta yok",
    "tükendi",
    "εξαντλήθηκε",
    "μη διαθέσιμο",
    "缺貨",
    "缺货",
    "售完",
    "已售完",
    "已售罄",
    "在庫なし",
    "在庫切れ",
    "売り切れ",
    "品切れ",
    "품절",
    "일시품절",
  ].join("|"),
  "i",
);

/** Phrases a shop prints when the product can be bought now: stock lines and dispatch times. */
const IN_STOCK = new RegExp(
  [
    "in stock",
    "available( now| to order| for (delivery|order|shipping))?",
    "ready to ship",
    "(usually )?(ships|dispatched|delivered) (with)?in",
    "auf lager",
    "(sofort )?lieferbar",
    "sofort verf[üu]gbar",
    "verf[üu]gbar",
    "erh[äa]ltlich",
    "versandfertig",
    "sofort versandbereit",
    "disponibile",
    "disponible",
    "en stock",
    "en existencia",
    "exp[ée]di[ée] sous",
    "op voorraad",
    "direct leverbaar",
    "leverbaar",
    "på lager",
    "dostępny",
    "dostępne",
    "w magazynie",
    "dispon[ií]vel",
    "em estoque",
    "в наличии",
    "є в наявності",
    "skladem",
    "na zalogi",
    "dobavljivo",
    "raktáron",
    "készleten",
    "varastossa",
    "stokta",
    "有現貨",
    "現貨",
    "有货",
    "现货",
    "在庫あり",
    "在庫有り",
    "재고 있음",
  ]
    .map((p) => `(^|[^\\p{L}])${p}($|[^\\p{L}])`)
    .join("|"),
  "iu",
);

/** What a shop's buy button says, in the languages we read. */
const BUY = new RegExp(
  `^(${[
    "add to (cart|basket|bag|trolley|shopping (cart|bag|basket))",
    "add",
    "buy( it)? now",
    "buy",
    "order now",
    "purchase",
    "in den (warenkorb|einkaufswagen)",
    "(jetzt )?kaufen",
    "in den korb",
    "ajouter( au panier)?",
    "acheter( maintenant)?",
    "aggiungi( al carrello)?",
    "acquista( ora)?",
    "compra( ora| ya)?",
    "comprar( ahora| já)?",
    "añadir (al carrito|a la cesta)",
    "agregar al carrito",
    "adicionar ao carrinho",
    "(in|toevoegen aan) (de )?winkel(wagen|mand)(je)?",
    "bestellen",
    "dodaj do koszyka",
    "do koszyka",
    "kup teraz",
    "do košíku",
    "vložit do košíku",
    "koupit",
    "dodaj v košarico",
    "v košarico",
    "kosárba",
    "kosárba teszem",
    "lisää ostoskoriin",
    "osta",
    "lägg i (varukorgen|kundvagnen)",
    "köp",
    "læg i kurv(en)?",
    "legg i handlekurv(en)?",
    "kjøp",
    "lisa ostukorvi",
    "ostukorvi",
    "į krepšelį",
    "ielikt grozā",
    "pievienot grozam",
    "adaugă în coș",
    "cumpără",
    "sepete ekle",
    "satın al",
    "στο καλάθι",
    "προσθήκη στο καλάθι",
    "в корзину",
    "купить",
    "додати в кошик",
    "купити",
    "加入購物車",
    "加入购物车",
    "立即購買",
    "立即购买",
    "直接購買",
    "放入購物車",
    "カートに入れる",
    "カートに追加",
    "今すぐ買う",
    "購入する",
    "장바구니(에)? 담기",
    "바로 ?구매",
    "구매하기",
  ].join("|")})$`,
  "iu",
);

/** A button a shop shows instead of the buy button when the product is gone. */
const NOTIFY =
  /^(notify me|email me when (it'?s )?(available|back in stock)|benachrichtig|m['’]avertir|me pr[ée]venir|avvisami|av[ií]same|meld mij)/i;

const BUTTON_LIKE = /btn|button|cart|basket|buy|purchase|kaufen|panier|carrello|order/i;

/** A control without words whose id or class names the buy action ("buy_btn", "add-to-cart"). */
const NAMED_BUY =
  /(^|[-_\s])(buy|add-?to-?(cart|basket|bag)|add_to_(cart|basket)|addto(cart|basket))([-_\s]|$)/i;

/**
 * What a classified ad shows instead of a buy button: a way to reach the seller about this item.
 * An ad that can still be answered is on offer; used only when the page has no buy button.
 */
const CONTACT = new RegExp(
  `^(${[
    "reply",
    "reply to (this )?(ad|post|seller)",
    "contact( the)? (seller|advertiser|owner|poster)",
    "email( the)? (user|seller|advertiser)",
    "message( the)? seller",
    "send (a )?message",
    "show (phone )?number",
    "(verk[äa]ufer|anbieter|inserenten?) kontaktieren",
    "kontaktieren",
    "nachricht (senden|schreiben)",
    "telefonnummer anzeigen",
    "contacter( le vendeur| l['’]annonceur)?",
    "contactar( al vendedor| con el anunciante)?",
    "contatta( il venditore| l['’]inserzionista)?",
    "napisz wiadomość",
    "kontakt med (s[æa]lger|selger)",
    "kontakta säljaren",
    "написать продавцу",
    "показать (номер|телефон)",
    "聯絡賣家",
    "联系卖家",
    "出品者に連絡",
  ].join("|")})$`,
  "iu",
);

/**
 * Availability from what the shopper sees, when no markup states it: a stock line (an element
 * named for stock or availability whose text says so), a labelled value ("Availability: 3 pcs"),
 * else the product's buy button: enabled means it can be bought, one that says "sold out" or
 * "notify me" means it cannot. The button counted is the first after the product's title, so a
 * related product's button further down does not speak for this one.
 */
export function visibleAvailability(
  $: CheerioAPI,
  title: ElementNode | null,
  labelled: string | undefined,
): { value: string; method: string } | null {
  const line = stockLine($);
  if (line) return { value: line, method: "stock text" };
  const stated = labelled ? stockOfText(labelled) : null;
  if (stated) return { value: stated, method: "label availability" };
  return controlState($, title);
}

/**
 * InStock or OutOfStock from a stock line's words, or a count of pieces ("3 pcs", "> 10 Stück").
 */
function stockOfText(text: string): string | null {
  if (OUT_OF_STOCK.test(text)) return "OutOfStock";
  if (IN_STOCK.test(text)) return "InStock";
  const count =
    /^[>≥+~]?\s*(\d{1,6})\s*\+?\s*(pcs?|pieces?|items?|units?|stk|st[üu]ck|szt|ks|kpl|db|gab|tk|vnt|шт|個|件|点)?\.?$/iu.exec(
      text,
    );
  if (!count) return null;
  return Number(count[1]) > 0 ? "InStock" : "OutOfStock";
}

function stockLine($: CheerioAPI): string | null {
  // [id*=vailability], [class*=vailability], [id*=stock], [class*=stock], [class*=Stock]
  const named = matching(
    $,
    ["id", "class"],
    (el) =>
      attrContains(el, "id", "vailability") ||
      attrContains(el, "class", "vailability") ||
      attrContains(el, "id", "stock") ||
      attrContains(el, "class", "stock") ||
      attrContains(el, "class", "Stock"),
  );
  for (const el of named) {
    const text = cleanText(boundedText(el, 160));
    // An empty container named "out-of-stock" is a slot the page fills when it is: no evidence.
    if (!text) continue;
    const marker = `${el.attribs["class"] ?? ""} ${el.attribs["id"] ?? ""}`;
    if (/(^|\s)(out-?of-?stock|sold-?out)(\s|$)/i.test(marker)) return "OutOfStock";
    if (/(^|\s)(in-?stock|instock)(\s|$)/i.test(marker)) return "InStock";
    const stated = stockOfText(text);
    if (stated) return stated;
  }
  return null;
}

/**
 * The product's buy button (the first after the title, else the first before it); without one,
 * a classified ad's contact button.
 */
function controlState(
  $: CheerioAPI,
  title: ElementNode | null,
): { value: string; method: string } | null {
  const elements = pageIndex($).elements;
  const start = title ? Math.max(elements.indexOf(title), 0) : 0;
  const first = (read: (el: ElementNode) => string | null): string | null =>
    firstControl(elements, start, elements.length, read) ?? firstControl(elements, 0, start, read);
  const bought = first(buttonState);
  if (bought) return { value: bought, method: "buy button" };
  const contact = first(contactState);
  return contact ? { value: contact, method: "contact button" } : null;
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
 * A button, a submit input, or a link that acts rather than leads somewhere: named as a button
 * or cart, or running a script (`href="javascript:…"`, `onclick`).
 */
function isControl(el: ElementNode): boolean {
  const a = el.attribs;
  if (el.name === "input") return a["type"] === "submit" || a["type"] === "button";
  if (el.name !== "a") return true;
  return (
    BUTTON_LIKE.test(`${a["class"] ?? ""} ${a["id"] ?? ""} ${a["role"] ?? ""}`) ||
    /^\s*javascript:/i.test(a["href"] ?? "") ||
    a["onclick"] !== undefined
  );
}

function isDisabled(el: ElementNode): boolean {
  const a = el.attribs;
  return (
    a["disabled"] !== undefined ||
    a["aria-disabled"] === "true" ||
    /(^|\s)(disabled|is-disabled)(\s|$)/.test(a["class"] ?? "")
  );
}

/**
 * A control's words (its value, text, aria-label or title), without closing punctuation; null if
 * none or too long.
 */
function controlLabel(el: ElementNode): string | null {
  const a = el.attribs;
  const text = cleanText(
    el.name === "input" ? a["value"] : boundedText(el, 40) || a["aria-label"] || a["title"],
  );
  if (!text || text.length > 40) return null;
  return text.replace(/[!.…]+$/u, "").trim();
}

/** What one control says about the product: InStock, OutOfStock, PreOrder, or nothing. */
function buttonState(el: ElementNode): string | null {
  if (!isControl(el)) return null;
  const label = controlLabel(el);
  if (label === null) {
    // An image button: its id or class says what it does.
    const named =
      boundedText(el, 1) === "" &&
      NAMED_BUY.test(`${el.attribs["id"] ?? ""} ${el.attribs["class"] ?? ""}`);
    return named && !isDisabled(el) ? "InStock" : null;
  }
  if (OUT_OF_STOCK.test(label) || NOTIFY.test(label)) return "OutOfStock";
  if (/^pre-?order|^vorbestellen|^pr[ée]-?commander|^preordina|^reservar/i.test(label))
    return "PreOrder";
  if (!BUY.test(label)) return null;
  return isDisabled(el) ? null : "InStock";
}

function contactState(el: ElementNode): string | null {
  if (!isControl(el) || isDisabled(el)) return null;
  const label = controlLabel(el);
  return label !== null && CONTACT.test(label) ? "InStock" : null;
}
