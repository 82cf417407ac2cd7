/**
 * The words of buy controls, in the languages of the shops we read. Labels and phrases are
 * compared folded (`foldLabel`: lower case, accents and other marks dropped), so "Adauga in Cos"
 * is "Adaugă în coș" and "اضف الى" is "أضف إلى".
 */

/** Lower case without accents or other combining marks. */
export function foldLabel(text: string): string {
  // Most labels are plain ASCII: nothing to decompose.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

const folded = (phrases: string[]): string => phrases.map(foldLabel).join("|");

/** Whole phrases that put the product in the cart; a price or more words may follow. */
const CART_PHRASES = [
  "add to (cart|basket|bag|trolley|shopping (cart|bag|basket))",
  "add to my (cart|basket|bag)",
  "buy( it)? now",
  "order now",
  "in den (warenkorb|einkaufswagen|korb)",
  "in die (tasche|einkaufstasche)",
  "(zum|in den) warenkorb hinzufügen",
  "ajouter (au panier|au sac|à mon panier)",
  "aggiungi (al carrello|alla borsa|alla shopping bag)",
  "(añadir|agregar|anadir) (al carrito|a la cesta|a la bolsa|al carro)",
  "(adicionar|colocar) (ao carrinho|à sacola|ao cesto|no carrinho)",
  "afegir a la cistella",
  "(in|toevoegen aan) (de |mijn )?winkel(wagen|mand)(je)?",
  "in (de )?(winkelwagen|winkelmand)(je)?",
  "lägg (i|till i) (varukorgen?|kundvagnen?|kundkorgen?)",
  "(læg|tilføj) (i|til) (indkøbs)?kurv(en)?",
  "legg i (handlekurven?|handlevognen?)",
  "lisää (ostos)?koriin",
  "lisa (ostu)?korvi",
  "ostukorvi",
  "setja í körfu",
  "(dodaj |wrzuć )?do koszyka",
  "(vložit |přidat )?do košíku",
  "(vložiť |pridať )?do košíka",
  "(dodaj )?v košarico",
  "(dodaj )?u (košaricu|košaru|korpu)",
  "(kosárba|kosárba teszem|a kosárba)",
  "(dėti )?į krepšelį",
  "(ielikt grozā|pievienot grozam)",
  "adaugă (în|in) (coș|cos)",
  "(добавить )?в корзину",
  "(додати )?в кошик",
  "добави в (количката|кошницата)",
  "додај у корпу",
  "додади во кошничка",
  "(προσθήκη )?στο καλάθι",
  "sepete ekle",
  "shto në shportë",
  "(أضف|اضف) (إلى |الى |ل)(ال|ل)?(سلة|حقيبة)( التسوق)?",
  "(إضافة|اضافة) (إلى|الى) (السلة|سلة التسوق|الحقيبة)",
  "(הוסף|הוספה) לסל",
  "(หยิบ)?ใส่ตะกร้า",
  "เพิ่ม(ลง)?(ใน)?(ตะกร้า|รถเข็น)",
  "thêm vào giỏ( hàng)?",
  "(tambah|tambahkan|masukkan) (ke )?(keranjang|troli|troli belanja)",
  "加入購物車",
  "加入购物车",
  "放入購物車",
  "放入购物车",
  "カートに(入れる|追加|いれる)",
  "(買い物)?かごに(入れる|追加)",
  "장바구니(에)? ?(담기|추가)",
  "कार्ट में जोड़ें",
  "افزودن به سبد( خرید)?",
];

/** Verbs that buy; an object or a price may follow ("Buy MP3 Album $9.49", "Comprar Entrada"). */
const BUY_VERBS = [
  "buy",
  "purchase",
  "(jetzt )?kaufen",
  "acheter( maintenant)?",
  "acquista( ora| subito)?",
  "compra( ora| ya| subito)?",
  "comprar( ahora| já| agora)?",
  "comprá",
  "koop( nu)?",
  "kup( teraz)?",
  "koupit",
  "kúpiť",
  "kupi( odmah| sada)?",
  "vásárlás",
  "megveszem",
  "osta( nyt)?",
  "köp( nu)?",
  "køb( nu)?",
  "kjøp( nå)?",
  "kaupa",
  "pirkti",
  "pirkt",
  "cumpără( acum)?",
  "купить",
  "купи( сега)?",
  "купити",
  "αγορά",
  "αγόρασε( τώρα)?",
  "satın al",
  "hemen al",
  "mua( ngay)?",
  "beli( sekarang)?",
  "(اشتر|اشتري) (الآن|الان)",
  "شراء",
  "קנה( עכשיו)?",
  "לרכישה",
  "ซื้อ(เลย|ทันที)?",
  "立即購買",
  "立即购买",
  "馬上購買",
  "马上购买",
  "直接購買",
  "直接购买",
  "立即訂購",
  "立即订购",
  "購買",
  "购买",
  "今すぐ(買う|購入)",
  "購入(する|手続きへ)?",
  "바로 ?구매(하기)?",
  "구매하기",
  "अभी खरीदें",
  "خرید",
];

/** Words that buy only as the whole label ("Add" is a buy button; "Add review" is not). */
const BARE = ["add", "ajouter", "aggiungi", "bestellen", "bestel"];

const BUY_LABEL = new RegExp(
  `^((${folded(CART_PHRASES)})([\\s:–—|·•,(-].*)?|(${folded(BUY_VERBS)})(\\s.*)?|(${folded(BARE)}))$`,
  "u",
);

/** Whether a control's words buy the product. */
export function buysByWords(label: string): boolean {
  return BUY_LABEL.test(foldLabel(label));
}

/** A button a shop shows instead of the buy button when the product is gone. */
export const NOTIFY =
  /^(notify me|email me when (it'?s )?(available|back in stock)|benachrichtig|m['’]avertir|me pr[ée]venir|avvisami|av[ií]same|meld mij|avise-me)/i;

export const PRE_ORDER = /^pre-?order|^vorbestellen|^pr[ée]-?commander|^preordina|^reservar/i;

/**
 * A class, id or image file named for the buy action, as whole words: "add-to-cart", "AddToCart",
 * "add_to_basket", "btn-cart", "buy-now", "buyBtn", "product-form__submit"; not "buyer-guide" or
 * "add-to-wishlist".
 */
const NAMED_BUY = new RegExp(
  [
    "(^|-)(buy|buynow|buybtn|buybutton|purchase)(-|$)",
    "(^|-)add-?to-?(cart|basket|bag|trolley)(-|$)",
    "(^|-)add-?(cart|basket|product)(-|$)",
    "(^|-)(btn|button)-(cart|basket|buy)(-|$)",
    "(^|-)(cart|basket)-(btn|button|submit)(-|$)",
    "(^|-)product-form-submit(-|$)",
  ].join("|"),
);

/**
 * Whether any of these names (class tokens, ids, file names) names the buy action; with
 * `button`, only a name that also says button ("buyBtn", "purchase-button"), for a wrapper.
 */
export function namesBuying(names: string, button = false): boolean {
  if (!/buy|cart|basket|bag|trolley|purchase|add|submit/i.test(names)) return false;
  return names.split(/[\s/.]+/).some((token) => {
    const words = token
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .toLowerCase()
      .replace(/[-_]+/g, "-");
    return NAMED_BUY.test(words) && (!button || /(^|-)(btn|button)(-|$)/.test(words));
  });
}

/** Words of a control doing something else, whatever its class says: a wish list, a share. */
export const OTHER_ACTION =
  /wish ?list|favou?rite|compare|share|merkzettel|wunschliste|merken|favoris|preferiti|favoritos|lista de deseos/i;

/**
 * What a classified ad or a comparison page shows instead of a buy button: a way to reach the
 * seller (or sellers) about this item. Used only when the page has no buy button.
 */
export const CONTACT = new RegExp(
  `^(${[
    "reply",
    "reply to (this )?(ad|post|sellers?)",
    "contact( the)? (sellers?|advertisers?|owners?|posters?|dealers?)",
    "email( the)? (users?|sellers?|advertisers?|dealers?)",
    "message( the)? (sellers?|dealers?)",
    "chat with( the)? (sellers?|dealers?|owners?)",
    "call( the)? (sellers?|dealers?)",
    "send (a )?messages?",
    "show (phone )?numbers?",
    "(verk[äa]ufer|anbieter|inserenten?|h[äa]ndler) kontaktieren",
    "kontaktieren",
    "nachricht (senden|schreiben)",
    "telefonnummer(n)? anzeigen",
    "contacter( le vendeur| les vendeurs| l['’]annonceur| les annonceurs)?",
    "contactar( al vendedor| a los vendedores| con el anunciante)?",
    "contatta( il venditore| i venditori| l['’]inserzionista)?",
    "napisz wiadomość",
    "kontakt med (s[æa]lger(e|ne)?|selger(e|ne)?)",
    "kontakta säljaren?",
    "написать продавцу",
    "связаться с продавц(ом|ами)",
    "показать (номер|телефон)(а|ы)?",
    "聯絡賣家",
    "联系卖家",
    "出品者に連絡",
  ].join("|")})$`,
  "iu",
);
