import {
  findCurrencyTokens,
  isIsoCurrency,
  minorUnits,
  resolveSign,
  type CurrencyToken,
} from "./currency-symbols.js";
import { findNumbers, type NumberRun } from "./read-number.js";
import { currencyForRegion, regionOfLocale } from "./region-currency.js";

export interface PriceHint {
  /** An ISO code ("CAD"), or text that shows the currency ("C$", "Price in €"). */
  currency?: string;
  /** A BCP 47 locale ("de-DE"): its region settles shared signs, its decimal sign "1.299". */
  locale?: string;
}

export interface ParsedPrice {
  /** A decimal string with at least two decimals: "1299.00", "29.1583". */
  amount: string;
  /** ISO 4217, or null when the text and hint do not say which currency. */
  currency: string | null;
  /**
   * Present when the price is in a currency that is no longer legal tender ("199,99 kn",
   * "550 лв", "HRK 20"): its ISO code. `currency` is then null, and a caller must not fill in
   * another currency (a hint, the page's or the store's) for it.
   */
  retiredCurrency?: string;
}

/**
 * Reads a price as shops print it. With several numbers, the first one counts: a range
 * ("$10 - $20", "from 26 to 50 €") gives its lower bound and "Was $20 Now $15" the first, because
 * which of two prices is current is a question for the page layout, not for the string.
 */
export function parsePrice(text: string, hint: PriceHint = {}): ParsedPrice | null {
  const clean = normalise(text);
  const preferred = preferredCodes(hint);
  const tokens = findCurrencyTokens(clean);
  // The currency decides how to read "1.299" (KWD has three decimals), so look for it first.
  const provisional = pickCurrency(tokens, null, preferred).code;
  const options = {
    minorUnits: minorUnits(provisional),
    decimalSeparator: decimalSeparatorOf(hint.locale),
  };
  const numbers = findNumbers(clean, options).filter((n) => !isPercent(clean, n));
  const chosen = pickNumber(clean, numbers, tokens);
  if (!chosen) return null;
  const { code, retired } = pickCurrency(tokens, chosen, preferred);
  const amount = formatAmount(chosen.whole, chosen.fraction);
  return retired
    ? { amount, currency: null, retiredCurrency: retired }
    : { amount, currency: code };
}

function normalise(text: string): string {
  return (
    text
      .normalize("NFKC")
      // "1'299.–" and "25,-": a dash for zero cents.
      .replace(/(\d)([.,])[-–—]{1,2}/gu, "$1$20")
      // "35€99": the sign standing where the decimal comma would be; not between two prices
      // that have their decimals ("49,99 € 39,99 €").
      .replace(/(?<![.,]\d*)(\d)\s?€\s?(\d{2})(?!\d|[.,]\d)/gu, "$1,$2 €")
  );
}

// Words joining the two ends of a price range.
const RANGE_JOIN = /^\s*(?:[-–—~]|to|bis|à|a|al|hasta|tot|till|do|до)\s*$/iu;

/**
 * The first number printed with a currency sign, so "3 issues for 14,85 EUR" is 14.85; without
 * any sign next to a number, the first number. A range keeps its lower end: "from 26 to 50 €".
 */
function pickNumber(
  text: string,
  numbers: NumberRun[],
  tokens: CurrencyToken[],
): NumberRun | undefined {
  const first = numbers[0];
  const signed = numbers.find((n) => tokens.some((t) => gap(t, n) <= 2));
  if (!first || !signed || signed === first) return first;
  const between = text
    .slice(first.end, signed.index)
    .replace(tokensPattern(tokens, first.end, signed.index, text), "");
  return RANGE_JOIN.test(between) ? first : signed;
}

/** A pattern removing the currency signs that fall between two positions. */
function tokensPattern(tokens: CurrencyToken[], from: number, to: number, text: string): RegExp {
  const signs = tokens
    .filter((t) => t.index >= from && t.end <= to)
    .map((t) => text.slice(t.index, t.end));
  if (signs.length === 0) return /$^/;
  return new RegExp(signs.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"), "gu");
}

// "40% OFF" is a discount, not a price.
function isPercent(text: string, run: NumberRun): boolean {
  return /^\s?%/u.test(text.slice(run.end, run.end + 2));
}

function explicitCodes(hint: PriceHint): string[] {
  const codes: string[] = [];
  const raw = hint.currency?.trim();
  if (raw) {
    if (/^[A-Za-z]{3}$/.test(raw) && isIsoCurrency(raw.toUpperCase()))
      codes.push(raw.toUpperCase());
    else {
      for (const token of findCurrencyTokens(raw.normalize("NFKC"))) {
        const code = token.sign.defaultCode;
        if (code) codes.push(code);
      }
    }
  }
  return codes;
}

function preferredCodes(hint: PriceHint): { explicit: string[]; all: string[] } {
  const explicit = explicitCodes(hint);
  const regional = currencyForRegion(regionOfLocale(hint.locale));
  return { explicit, all: regional ? [...explicit, regional] : explicit };
}

/**
 * The sign next to the number if there is one, else the first sign anywhere, else the hint. A
 * retired currency's sign resolves to no code, and says which currency it was.
 */
function pickCurrency(
  tokens: CurrencyToken[],
  near: NumberRun | null,
  preferred: { explicit: string[]; all: string[] },
): { code: string | null; retired?: string } {
  let token = tokens[0];
  if (near) {
    const adjacent = tokens.find((t) => gap(t, near) <= 2);
    if (adjacent) token = adjacent;
  }
  if (token) {
    if (token.sign.retired) return { code: null, retired: token.sign.retired };
    // "$1,190.00 AUD": a code elsewhere in the text settles a shared sign.
    const codes =
      token.sign.codes.length > 1
        ? tokens
            .filter(
              (t) =>
                t.sign.codes.length === 1 && token.sign.codes.includes(t.sign.codes[0] as string),
            )
            .map((t) => t.sign.codes[0] as string)
        : [];
    return { code: resolveSign(token.sign, [...codes, ...preferred.all]) };
  }
  // Without a sign, only an explicit currency hint counts: a locale tells how to read a
  // number, not what a bare "12.50" is priced in.
  return { code: preferred.explicit[0] ?? null };
}

function gap(token: CurrencyToken, run: NumberRun): number {
  return token.end <= run.index ? run.index - token.end : Math.max(0, token.index - run.end);
}

function decimalSeparatorOf(locale: string | undefined): "." | "," | null {
  if (!locale) return null;
  try {
    const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal");
    return part?.value === "," ? "," : part?.value === "." ? "." : null;
  } catch {
    return null;
  }
}

function formatAmount(whole: string, fraction: string): string {
  const integer = whole.replace(/^0+(?=\d)/, "") || "0";
  const decimals = fraction.replace(/0+$/, "").padEnd(2, "0");
  return `${integer}.${decimals}`;
}
