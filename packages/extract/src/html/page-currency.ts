import { currencyForRegion } from "../price/index.js";
import type { CheerioAPI } from "./dom.js";
import { tagged } from "./page-index.js";

// Generic and shared second-level names that say nothing about a country.
const NOT_COUNTRIES = new Set([
  "com",
  "net",
  "org",
  "io",
  "co",
  "shop",
  "store",
  "eu",
  "info",
  "biz",
  "app",
]);

/**
 * The currency the page's country uses, from its domain (".co.uk", ".com.au", ".de") or the
 * region in `<html lang="es-CL">` (or "zh-Hant-TW"). Only ever a tie-breaker for shared signs ("$", "kr") and
 * for a price printed with no sign at all.
 */
export function pageCurrency($: CheerioAPI, pageUrl: string): string | null {
  let host: string;
  try {
    host = new URL(pageUrl).hostname.toLowerCase();
  } catch {
    host = "";
  }
  const tld = host.split(".").pop() ?? "";
  if (tld.length === 2 && !NOT_COUNTRIES.has(tld)) {
    const code = currencyForRegion(tld);
    if (code) return code;
  }
  const lang = tagged($, "html")[0]?.attribs["lang"] ?? "";
  // BCP 47: language, an optional script ("zh-Hant-TW", "sr-Latn-RS"), then the region.
  const region = /^[a-z]{2,3}(?:[-_][a-z]{4})?[-_]([a-z]{2})\b/i.exec(lang.trim())?.[1];
  return currencyForRegion(region);
}
