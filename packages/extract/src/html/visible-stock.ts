import { boundedText, type CheerioAPI, type ElementNode } from "./dom.js";
import { attrContains, matching, pageIndex } from "./page-index.js";
import { cleanText } from "./text.js";

/** Phrases a shop prints when the product cannot be bought now, in the languages we read. */
const OUT_OF_STOCK = new RegExp([
  "out of stock", "sold out", "currently unavailable", "not available", "unavailable", "no longer available",
  "nicht (mehr )?verf[üu]gbar", "nicht (mehr )?lieferbar", "nicht (mehr )?erh[äa]ltlich", "ausverkauft", "vergriffen",
  "non disponibile", "esaurito", "no disponible", "agotado", "sin stock",
  "[ée]puis[ée]", "indisponible", "rupture de stock", "niet (op voorraad|leverbaar|beschikbaar)", "uitverkocht",
  "brak w magazynie", "niedostępny", "wyprzedan[ya]", "slutsåld", "slut i lager", "udsolgt", "utsolgt", "ikke på lager",
  "esgotado", "indispon[ií]vel", "нет в наличии", "распродано", "немає в наявності",
  "nen[ií] skladem", "vyprodáno", "ni na zalogi", "nincs készleten", "elfogyott", "loppuunmyyty", "ei varastossa",
  "stokta yok", "tükendi", "εξαντλήθηκε", "μη διαθέσιμο",
  "缺貨", "缺货", "售完", "已售完", "已售罄", "在庫なし", "在庫切れ", "売り切れ", "品切れ", "품절", "일시품절",
].join("|"), "i");

/** Phrases a shop prints when the product can be bought now: stock lines and dispatch times. */
const IN_STOCK = new RegExp([
  "in stock", "available( now| to order| for (delivery|order|shipping))?", "ready to ship", "(usually )?(ships|dispatched|delivered) (with)?in",
  "auf lager", "(sofort )?lieferbar", "sofort verf[üu]gbar", "verf[üu]gbar", "erh[äa]ltlich", "versandfertig", "sofort versandbereit",
  "disponibile", "disponible", "en stock", "en existencia", "exp[ée]di[ée] sous", "op voorraad", "direct leverbaar", "leverbaar",
  "på lager", "dostępny", "dostępne", "w magazynie", "dispon[ií]vel", "em estoque",
  "в наличии", "є в наявності", "skladem", "na zalogi", "dobavljivo", "raktáron", "készleten", "varastossa", "stokta",
  "有現貨", "現貨", "有货", "现货", "在庫あり", "在庫有り", "재고 있음",
].map((p) => `(^|[^\\p{L}])${p}($|[^\\p{L}])`).join("|"), "iu");

/** What a shop's buy button says, in the languages we read. */
const BUY = new RegExp(`^(${[
  "add to (cart|basket|bag|trolley|shopping (cart|bag|basket))", "add", "buy( it)? now", "buy", "order now", "purchase",
  "in den (warenkorb|einkaufswagen)", "(jetzt )?kaufen", "in den korb", "ajouter( au panier)?", "acheter( maintenant)?",
  "aggiungi( al carrello)?", "acquista( ora)?", "compra( ora| ya)?", "comprar( ahora| já)?", "añadir (al carrito|a la cesta)",
  "agregar al carrito", "adicionar ao carrinho", "(in|toevoegen aan) (de )?winkel(wagen|mand)(je)?", "bestellen",
  "dodaj do koszyka", "do koszyka", "kup teraz", "do košíku", "vložit do košíku", "koupit", "dodaj v košarico", "v košarico",
  "kosárba", "kosárba teszem", "lisää ostoskoriin", "osta", "lägg i (varukorgen|kundvagnen)", "köp", "læg i kurv(en)?",
  "legg i handlekurv(en)?", "kjøp", "lisa ostukorvi", "ostukorvi", "į krepšelį", "ielikt grozā", "pievienot grozam",
  "adaugă în coș", "cumpără", "sepete ekle", "satın al", "στο καλάθι", "προσθήκη στο καλάθι", "в корзину", "купить",
  "додати в кошик", "купити", "加入購物車", "加入购物车", "立即購買", "立即购买", "直接購買", "放入購物車",
  "カートに入れる", "カートに追加", "今すぐ買う", "購入する", "장바구니(에)? 담기", "바로 ?구매", "구매하기",
].join("|")})$`, "iu");

/** A button a shop shows instead of the buy button when the product is gone. */
const NOTIFY = /^(notify me|email me when (it'?s )?(available|back in stock)|benachrichtig|m['’]avertir|me pr[ée]venir|avvisami|av[ií]same|meld mij)/i;

const BUTTON_LIKE = /btn|button|cart|basket|buy|purchase|kaufen|panier|carrello|order/i;

/**
 * Availability from what the shopper sees, when no markup states it: a stock line (an element
 * named for stock or availability whose text says so), a labelled value ("Availability: 3 pcs"),
 * else the product's buy button: enabled means it can be bought, one that says "sold out" or
 * "notify me" means it cannot. The button counted is the first after the product's title, so a
 * related product's button further down does not speak for this one.
 */
export function visibleAvailability(
  $: CheerioAPI, title: ElementNode | null, labelled: string | undefined,
): { value: string; method: string } | null {
  const line = stockLine($);
  if (line) return { value: line, method: "stock text" };
  const stated = labelled ? stockOfText(labelled) : null;
  if (stated) return { value: stated, method: "label availability" };
  const button = buyButton($, title);
  return button ? { value: button, method: "buy button" } : null;
}

/** InStock or OutOfStock from a stock line's words, or a count of pieces ("3 pcs", "> 10 Stück"). */
function stockOfText(text: string): string | null {
  if (OUT_OF_STOCK.test(text)) return "OutOfStock";
  if (IN_STOCK.test(text)) return "InStock";
  const count = /^[>≥+~]?\s*(\d{1,6})\s*\+?\s*(pcs?|pieces?|items?|units?|stk|st[üu]ck|szt|ks|kpl|db|gab|tk|vnt|шт|個|件|点)?\.?$/iu.exec(text);
  if (!count) return null;
  return Number(count[1]) > 0 ? "InStock" : "OutOfStock";
}

function stockLine($: CheerioAPI): string | null {
  // [id*=vailability], [class*=vailability], [id*=stock], [class*=stock], [class*=Stock]
  const named = matching($, ["id", "class"], (el) => attrContains(el, "id", "vailability") || attrContains(el, "class", "vailability")
    || attrContains(el, "id", "stock") || attrContains(el, "class", "stock") || attrContains(el, "class", "Stock"));
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

function buyButton($: CheerioAPI, title: ElementNode | null): string | null {
  const elements = pageIndex($).elements;
  const start = title ? Math.max(elements.indexOf(title), 0) : 0;
  return firstButtonState(elements, start, elements.length) ?? firstButtonState(elements, 0, start);
}

function firstButtonState(elements: ElementNode[], from: number, to: number): string | null {
  for (let i = from; i < to; i++) {
    const el = elements[i] as ElementNode;
    if (el.name !== "button" && el.name !== "input" && el.name !== "a") continue;
    const state = buttonState(el);
    if (state) return state;
  }
  return null;
}

/** What one control says about the product: InStock, OutOfStock, PreOrder, or nothing. */
function buttonState(el: ElementNode): string | null {
  const a = el.attribs;
  if (el.name === "input" && a["type"] !== "submit" && a["type"] !== "button") return null;
  if (el.name === "a" && !BUTTON_LIKE.test(`${a["class"] ?? ""} ${a["id"] ?? ""} ${a["role"] ?? ""}`)) return null;
  const text = cleanText(el.name === "input" ? a["value"] : boundedText(el, 40) || a["aria-label"] || a["title"]);
  if (!text || text.length > 40) return null;
  const label = text.replace(/[!.…]+$/u, "").trim();
  if (OUT_OF_STOCK.test(label) || NOTIFY.test(label)) return "OutOfStock";
  if (/^pre-?order|^vorbestellen|^pr[ée]-?commander|^preordina|^reservar/i.test(label)) return "PreOrder";
  if (!BUY.test(label)) return null;
  const disabled = a["disabled"] !== undefined || a["aria-disabled"] === "true" || /(^|\s)(disabled|is-disabled)(\s|$)/.test(a["class"] ?? "");
  return disabled ? null : "InStock";
}
