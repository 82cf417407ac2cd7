import { retiredCurrency } from "../price/currency-symbols.js";
import { parsePrice } from "../price/index.js";

/**
 * The currency of a price or row that names a currency which is no longer legal tender (HRK,
 * "kn", BGN, "лв"). It is not null, so nothing falls back to the row's or the store's currency
 * for it (a price in kuna is not a price in euros), and it is falsy, so no `Money` is made of
 * it: the amount is kept without a currency (price-fields.ts).
 */
export const NO_CURRENT_CURRENCY = "";

/** A cell or JSON value as trimmed text; empty and non-scalar values are null. */
export function textOf(value: unknown): string | null {
  if (typeof value === "string") {
    const t = value.trim();
    return t === "" ? null : t;
  }
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : null;
  if (typeof value === "boolean") return value ? "true" : "false";
  return null;
}

export type PriceRead =
  | { kind: "none" }
  | { kind: "ok"; amount: string; currency: string | null }
  | { kind: "bad"; text: string };

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Document prices are mostly plain decimals ("19.99"), read here directly; anything with a
 * sign, code or separators ("€19,99", "1.299,00 EUR") goes to the shared price parser.
 * Negative amounts are refused: a price list never means them.
 */
export function readPrice(value: unknown, currencyHint: string | null): PriceRead {
  if (value === null || value === undefined) return { kind: "none" };
  if (typeof value === "number") {
    return Number.isFinite(value) && value >= 0
      ? readPrice(numberText(value), currencyHint)
      : { kind: "bad", text: String(value) };
  }
  if (typeof value !== "string")
    return { kind: "bad", text: JSON.stringify(value) ?? typeof value };
  const text = value.trim();
  if (text === "") return { kind: "none" };
  const plain = PLAIN_DECIMAL.exec(text);
  if (plain) return { kind: "ok", amount: formatAmount(plain[1]!, plain[2] ?? ""), currency: null };
  if (/^-|^\(.*\)$/.test(text)) return { kind: "bad", text };
  const parsed = parsePrice(text, currencyHint ? { currency: currencyHint } : {});
  if (!parsed) return { kind: "bad", text };
  return {
    kind: "ok",
    amount: parsed.amount,
    currency: parsed.retiredCurrency ? NO_CURRENT_CURRENCY : parsed.currency,
  };
}

/** "19.9" -> "19.90", "007" -> "7.00": the same shape the price parser and the catalog use. */
export function formatAmount(whole: string, fraction: string): string {
  const integer = whole.replace(/^0+(?=\d)/, "") || "0";
  return `${integer}.${fraction.replace(/0+$/, "").padEnd(2, "0")}`;
}

function numberText(n: number): string {
  // Spreadsheet arithmetic leaves 19.990000000000002; no price has more than 4 decimals.
  const text = String(Number.isInteger(n) ? n : Math.round(n * 1e4) / 1e4);
  return text.includes("e") ? n.toFixed(4) : text;
}

/**
 * An ISO-4217 code from "EUR", "eur", "€" or "US$"; NO_CURRENT_CURRENCY for a retired one
 * ("HRK", "kn", "BGN", "лв"); null when the text does not name a currency.
 */
export function currencyCode(value: unknown): string | null {
  const text = textOf(value);
  if (!text) return null;
  if (/^[A-Za-z]{3}$/.test(text)) {
    const code = text.toUpperCase();
    return retiredCurrency(code) ? NO_CURRENT_CURRENCY : code;
  }
  const parsed = parsePrice("1", { currency: text });
  return parsed?.retiredCurrency ? NO_CURRENT_CURRENCY : (parsed?.currency ?? null);
}

const AVAILABILITY: Record<string, string> = {
  instock: "InStock",
  available: "InStock",
  yes: "InStock",
  true: "InStock",
  y: "InStock",
  onstock: "InStock",
  outofstock: "OutOfStock",
  unavailable: "OutOfStock",
  no: "OutOfStock",
  false: "OutOfStock",
  n: "OutOfStock",
  preorder: "PreOrder",
  backorder: "BackOrder",
  onbackorder: "BackOrder",
  discontinued: "Discontinued",
  limitedavailability: "LimitedAvailability",
  limited: "LimitedAvailability",
  instoreonly: "InStoreOnly",
  onlineonly: "OnlineOnly",
  presale: "PreSale",
  soldout: "OutOfStock",
};

/** A schema.org ItemAvailability name from a stock word, a quantity or a schema.org URL. */
export function toAvailability(value: unknown): string | null {
  if (typeof value === "boolean") return value ? "InStock" : "OutOfStock";
  const text = textOf(value);
  if (!text) return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text) > 0 ? "InStock" : "OutOfStock";
  const key = text
    .replace(/^https?:\/\/schema\.org\//i, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
  return AVAILABILITY[key] ?? null;
}

/**
 * GTIN-8/12/13/14 digits. Values that are not (Excel's "3.65275E+11", which has lost digits for
 * good) are not GTINs; callers keep the raw text elsewhere.
 */
export function toGtin(value: unknown): string | null {
  const text = textOf(value)?.replace(/[\s-]/g, "");
  if (!text) return null;
  const digits = /^\d+\.0+$/.test(text) ? text.replace(/\.0+$/, "") : text;
  return /^\d{8,14}$/.test(digits) ? digits : null;
}

/**
 * Absolute http(s) URL or null. Protocol-relative "//cdn..." (common in Shopify data) becomes
 * https.
 */
export function absoluteUrl(value: unknown): string | null {
  let text = textOf(value);
  if (!text) return null;
  if (text.startsWith("//")) text = `https:${text}`;
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Image lists come separated by commas, pipes, semicolons or whitespace. A comma splits only
 * before another URL, because CDN transformation URLs ("w_200,h_200") contain commas.
 */
function splitUrlList(text: string): string[] {
  return text.split(/[\s|]+|[,;](?=\s*(?:https?:)?\/\/)/i).filter((s) => s !== "");
}

/** Images from a string list, an array of strings, or objects with src/url (Shopify, our API). */
export function imageUrls(value: unknown): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === "string")
      for (const part of splitUrlList(v)) {
        const url = absoluteUrl(part);
        if (url) out.push(url);
      }
    else if (Array.isArray(v)) v.forEach(add);
    else if (isRecord(v)) add(v.src ?? v.url ?? v.href ?? v.contentUrl);
  };
  add(value);
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A copy that does not share memory with the text it was cut from. V8 keeps a slice of a string
 * as a pointer into the whole, so one 20-character handle kept in a Map would pin its entire
 * 64 KB input chunk; anything kept beyond the current row goes through this.
 */
export function detached<T>(value: T): T {
  if (typeof value === "string") return Buffer.from(value, "utf8").toString("utf8") as T;
  return JSON.parse(JSON.stringify(value)) as T;
}
