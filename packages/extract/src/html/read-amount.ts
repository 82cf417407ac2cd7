import { parsePrice } from "../price/index.js";
import type { PriceValue } from "./found.js";

// Intl.supportedValuesOf builds a new array on every call; offers ask for every price.
const ISO_CODES = new Set(Intl.supportedValuesOf("currency"));

/** An ISO code from what markup puts in a currency field: "EUR", "eur", "€", "US$". */
export function currencyCode(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  if (/^[A-Za-z]{3}$/.test(text)) {
    const upper = text.toUpperCase();
    return ISO_CODES.has(upper) ? upper : null;
  }
  return parsePrice(`1 ${text}`)?.currency ?? null;
}

/**
 * A machine-readable price ("1299.00", 1299, "1,299.00 €"). schema.org asks for a plain
 * decimal with a point, so one is taken at its word; anything else goes through the price
 * parser. Zero is read as "no price": shops print it for prices they do not show.
 */
export function readAmount(
  raw: string | null,
  currency: string | null,
  ambiguousHint?: string | null,
): PriceValue | null {
  const text = raw?.trim();
  if (!text) return null;
  const code = currencyCode(currency);
  let amount: string | null;
  let parsedCurrency: string | null = null;
  const exponent = EXPONENT.exec(text);
  if (/^\d+(\.\d+)?$/.test(text)) amount = formatPlain(text);
  else if (exponent) amount = fromExponent(exponent);
  else {
    const hintText = code ?? currency ?? ambiguousHint ?? undefined;
    const parsed = parsePrice(text, hintText ? { currency: hintText } : {});
    amount = parsed?.amount ?? null;
    parsedCurrency = parsed?.currency ?? null;
  }
  if (!amount || Number(amount) === 0) return null;
  return { amount, currency: code ?? parsedCurrency };
}

// "1.5e2", 1e20 as JSON writes it: a number in exponent form, not the amount 1.
const EXPONENT = /^(\d+)(?:\.(\d+))?[eE]\+?(-?\d+)$/;

/**
 * The exponent applied to the digits as text, so no float rounding creeps in; beyond 10^±20 it
 * is no price at all.
 */
function fromExponent([, whole = "", fraction = "", power = "0"]: RegExpExecArray): string | null {
  if (Math.abs(Number(power)) > 20) return null;
  const digits = whole + fraction;
  const point = whole.length + Number(power);
  if (point <= 0) return formatPlain(`0.${"0".repeat(-point)}${digits}`);
  if (point >= digits.length) return formatPlain(digits + "0".repeat(point - digits.length));
  return formatPlain(`${digits.slice(0, point)}.${digits.slice(point)}`);
}

function formatPlain(text: string): string {
  const [whole = "0", fraction = ""] = text.split(".");
  const integer = whole.replace(/^0+(?=\d)/, "");
  return `${integer}.${fraction.replace(/0+$/, "").padEnd(2, "0")}`;
}
