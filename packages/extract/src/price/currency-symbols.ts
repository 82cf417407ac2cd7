/**
 * Currency signs as shops print them, mapped to ISO 4217. A sign shared by several currencies
 * lists all of them: the first is the default, or there is none (`defaultCode: null`) when no
 * guess is safer than a wrong one ("kr" is SEK, NOK, DKK or ISK in equal measure).
 */
export interface CurrencySign {
  sign: string;
  codes: readonly string[];
  defaultCode: string | null;
  /**
   * The ISO code of a currency that is no longer legal tender, for its signs and code ("kn" and
   * HRK): such a price names its currency, but no current one, so it resolves to no currency
   * (`codes` is empty) rather than to its successor or to a hint.
   */
  retired?: string;
}

const DOLLAR_CODES = [
  "USD",
  "CAD",
  "AUD",
  "NZD",
  "HKD",
  "SGD",
  "TWD",
  "MXN",
  "ARS",
  "CLP",
  "COP",
  "UYU",
  "JMD",
  "TTD",
  "BSD",
  "BBD",
  "BZD",
  "BMD",
  "FJD",
  "GYD",
  "LRD",
  "NAD",
  "SBD",
  "SRD",
  "XCD",
  "KYD",
  "BND",
  "DOP",
  "CUP",
  "NIO",
  "BRL",
] as const;

function one(sign: string, code: string): CurrencySign {
  return { sign, codes: [code], defaultCode: code };
}

function shared(sign: string, codes: readonly string[], defaultCode: string | null): CurrencySign {
  return { sign, codes, defaultCode };
}

function retired(sign: string, code: string): CurrencySign {
  return { sign, codes: [], defaultCode: null, retired: code };
}

/**
 * Currencies ICU (and so `Intl.supportedValuesOf("currency")`) still lists that are no longer
 * legal tender, with the day they went: a price in one cannot be stored as its successor (the
 * amounts differ by the conversion rate), so it is read as a price without a currency.
 */
export const RETIRED_CURRENCIES: Readonly<Record<string, string>> = {
  HRK: "2023-01-01", // Croatian kuna, replaced by the euro
  BGN: "2026-01-01", // Bulgarian lev, replaced by the euro
};

const SIGNS: CurrencySign[] = [
  shared("$", DOLLAR_CODES, "USD"),
  one("US$", "USD"),
  one("U$S", "USD"),
  one("USD$", "USD"),
  one("C$", "CAD"),
  one("CA$", "CAD"),
  one("CAD$", "CAD"),
  one("A$", "AUD"),
  one("AU$", "AUD"),
  one("AUD$", "AUD"),
  one("NZ$", "NZD"),
  one("HK$", "HKD"),
  one("S$", "SGD"),
  one("SG$", "SGD"),
  one("NT$", "TWD"),
  one("MX$", "MXN"),
  one("R$", "BRL"),
  one("J$", "JMD"),
  one("TT$", "TTD"),
  one("MOP$", "MOP"),
  one("RD$", "DOP"),
  one("B/.", "PAB"),
  one("S/.", "PEN"),
  one("S/", "PEN"),
  one("Bs.", "VES"),
  one("Bs", "BOB"),
  one("€", "EUR"),
  one("euro", "EUR"),
  one("Euro", "EUR"),
  one("euros", "EUR"),
  one("Euros", "EUR"),
  shared("£", ["GBP", "EGP", "LBP", "SYP", "GIP", "FKP", "SHP"], "GBP"),
  one("₤", "GBP"),
  shared("¥", ["JPY", "CNY"], "JPY"),
  one("円", "JPY"),
  shared("元", ["CNY", "TWD", "HKD", "MOP"], "CNY"),
  one("RMB", "CNY"),
  one("CN¥", "CNY"),
  one("人民币", "CNY"),
  one("JP¥", "JPY"),
  one("₩", "KRW"),
  one("원", "KRW"),
  one("₹", "INR"),
  shared("Rs", ["INR", "PKR", "LKR", "NPR", "MUR", "SCR"], null),
  shared("Rs.", ["INR", "PKR", "LKR", "NPR", "MUR", "SCR"], null),
  shared("₨", ["INR", "PKR", "LKR", "NPR", "MUR", "SCR"], null),
  one("৳", "BDT"),
  one("₽", "RUB"),
  one("руб", "RUB"),
  one("рублей", "RUB"),
  one("рубля", "RUB"),
  one("рубль", "RUB"),
  one("р", "RUB"),
  one("Р", "RUB"),
  one("₴", "UAH"),
  one("грн", "UAH"),
  one("zł", "PLN"),
  one("zl", "PLN"),
  one("Kč", "CZK"),
  one("Ft", "HUF"),
  one("lei", "RON"),
  one("Lei", "RON"),
  one("LEI", "RON"),
  retired("лв", "BGN"),
  retired("лв.", "BGN"),
  one("ден", "MKD"),
  one("дин", "RSD"),
  one("din", "RSD"),
  retired("kn", "HRK"),
  one("Br", "BYN"),
  one("₸", "KZT"),
  one("сом", "KGS"),
  one("₾", "GEL"),
  one("֏", "AMD"),
  one("₼", "AZN"),
  one("₺", "TRY"),
  one("TL", "TRY"),
  shared("kr", ["SEK", "NOK", "DKK", "ISK"], null),
  shared("kr.", ["DKK", "ISK", "SEK", "NOK"], null),
  one("CHF", "CHF"),
  one("Fr.", "CHF"),
  one("SFr.", "CHF"),
  one("₪", "ILS"),
  one("NIS", "ILS"),
  one("₫", "VND"),
  one("đ", "VND"),
  one("VNĐ", "VND"),
  one("Rp", "IDR"),
  one("RM", "MYR"),
  one("₱", "PHP"),
  one("฿", "THB"),
  one("บาท", "THB"),
  one("₮", "MNT"),
  one("₭", "LAK"),
  one("៛", "KHR"),
  one("؋", "AFN"),
  one("₦", "NGN"),
  one("₵", "GHS"),
  one("₡", "CRC"),
  one("₲", "PYG"),
  one("KSh", "KES"),
  one("Ksh", "KES"),
  one("TSh", "TZS"),
  one("USh", "UGX"),
  one("R", "ZAR"),
  one("FCFA", "XAF"),
  one("CFA", "XOF"),
  one("FBu", "BIF"),
  one("Fdj", "DJF"),
  one("Nfk", "ERN"),
  one("Nu.", "BTN"),
  one("UM", "MRU"),
  one("VT", "VUV"),
  one("د.إ", "AED"),
  one("Dhs", "AED"),
  one("ر.س", "SAR"),
  one("ر.ق", "QAR"),
  one("د.ك", "KWD"),
  one("KD", "KWD"),
  one("BD", "BHD"),
  one("ر.ع", "OMR"),
  one("ج.م", "EGP"),
  one("جنيه", "EGP"),
  one("د.م", "MAD"),
  one("DH", "MAD"),
  one("د.ج", "DZD"),
  one("DT", "TND"),
  shared("﷼", ["IRR", "SAR", "QAR", "OMR", "YER"], null),
  shared("ریال", ["IRR", "SAR", "QAR", "OMR", "YER"], null),
  shared("ريال", ["SAR", "IRR", "QAR", "OMR", "YER"], null),
];

const ISO_CODES = new Set(
  Intl.supportedValuesOf("currency").filter((code) => !(code in RETIRED_CURRENCIES)),
);

/** An ISO 4217 code in use today ("EUR"); retired ones (HRK, BGN) are not. Upper case only. */
export function isIsoCurrency(code: string): boolean {
  return ISO_CODES.has(code);
}

/** The retired currency an ISO code names ("HRK"), or null. */
export function retiredCurrency(code: string): string | null {
  return Object.hasOwn(RETIRED_CURRENCIES, code) ? code : null;
}

const BY_SIGN = new Map<string, CurrencySign>(SIGNS.map((s) => [s.sign.toLowerCase(), s]));
// Letter signs are only signs when they stand alone; "R" inside "RAM" is not a rand.
const LETTERS = /\p{L}/u;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

// Longest first, so "US$" wins over "$" and "Rs." over "Rs".
const SIGN_PATTERN = SIGNS.map((s) => s.sign)
  .sort((a, b) => b.length - a.length)
  .map((sign) => {
    const body = escapeRegExp(sign);
    const starts = LETTERS.test(sign[0] ?? "");
    const ends = LETTERS.test(sign[sign.length - 1] ?? "");
    return `${starts ? "(?<!\\p{L})" : ""}${body}${ends ? "(?!\\p{L})" : ""}`;
  })
  .join("|");
// ISO codes count only in capitals: "try" and "all" are words, "TRY" and "ALL" are prices.
const TOKEN = new RegExp(`(?<!\\p{L})[A-Z]{3}(?!\\p{L})|${SIGN_PATTERN}`, "gu");

export interface CurrencyToken {
  index: number;
  end: number;
  sign: CurrencySign;
}

/** Every currency sign or ISO code in the text, in order. */
export function findCurrencyTokens(text: string): CurrencyToken[] {
  const found: CurrencyToken[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const raw = match[0];
    const index = match.index ?? 0;
    const sign = /^[A-Z]{3}$/.test(raw)
      ? ISO_CODES.has(raw)
        ? one(raw, raw)
        : retiredCurrency(raw)
          ? retired(raw, raw)
          : BY_SIGN.get(raw.toLowerCase())
      : (BY_SIGN.get(raw.toLowerCase()) ?? BY_SIGN.get(raw));
    if (sign) found.push({ index, end: index + raw.length, sign });
  }
  return found;
}

/**
 * The ISO code for a sign, using a preferred code when the sign allows it: "$" with CAD
 * preferred is CAD, "kr" with SEK is SEK, "€" stays EUR whatever is preferred.
 */
export function resolveSign(sign: CurrencySign, preferred: readonly string[]): string | null {
  for (const code of preferred) if (sign.codes.includes(code)) return code;
  return sign.defaultCode;
}

/** Digits after the decimal point for a currency (KWD 3, JPY 0), 2 when unknown. */
export function minorUnits(code: string | null): number {
  if (!code || !ISO_CODES.has(code)) return 2;
  return (
    new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}
