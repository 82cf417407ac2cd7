/**
 * The currency a country prices in, for signs shared between countries ("$" in Canada is CAD).
 * Keyed by ISO 3166 region, as found in a locale ("en-CA") or a country domain (".ca").
 * Croatia prices in euros since 2023-01-01 (kuna retired), Bulgaria since 2026-01-01 (lev retired).
 */
const REGION_CURRENCY: Record<string, string> = {
  US: "USD",
  CA: "CAD",
  AU: "AUD",
  NZ: "NZD",
  HK: "HKD",
  SG: "SGD",
  TW: "TWD",
  MX: "MXN",
  AR: "ARS",
  CL: "CLP",
  CO: "COP",
  UY: "UYU",
  BR: "BRL",
  PE: "PEN",
  JM: "JMD",
  TT: "TTD",
  GB: "GBP",
  UK: "GBP",
  IE: "EUR",
  JP: "JPY",
  CN: "CNY",
  KR: "KRW",
  IN: "INR",
  PK: "PKR",
  LK: "LKR",
  NP: "NPR",
  BD: "BDT",
  RU: "RUB",
  UA: "UAH",
  BY: "BYN",
  KZ: "KZT",
  PL: "PLN",
  CZ: "CZK",
  HU: "HUF",
  RO: "RON",
  BG: "EUR",
  HR: "EUR",
  RS: "RSD",
  TR: "TRY",
  CH: "CHF",
  LI: "CHF",
  SE: "SEK",
  NO: "NOK",
  DK: "DKK",
  IS: "ISK",
  IL: "ILS",
  VN: "VND",
  ID: "IDR",
  MY: "MYR",
  PH: "PHP",
  TH: "THB",
  AE: "AED",
  SA: "SAR",
  QA: "QAR",
  KW: "KWD",
  BH: "BHD",
  OM: "OMR",
  EG: "EGP",
  MA: "MAD",
  ZA: "ZAR",
  NG: "NGN",
  KE: "KES",
  IR: "IRR",
  DE: "EUR",
  FR: "EUR",
  IT: "EUR",
  ES: "EUR",
  PT: "EUR",
  NL: "EUR",
  BE: "EUR",
  AT: "EUR",
  FI: "EUR",
  GR: "EUR",
  SK: "EUR",
  SI: "EUR",
  EE: "EUR",
  LV: "EUR",
  LT: "EUR",
  LU: "EUR",
  MT: "EUR",
  CY: "EUR",
};

export function currencyForRegion(region: string | null | undefined): string | null {
  if (!region) return null;
  return REGION_CURRENCY[region.toUpperCase()] ?? null;
}

/** The region of a locale tag, filling in the likely one ("de" is DE, "pt" is BR). */
export function regionOfLocale(locale: string | undefined): string | null {
  if (!locale) return null;
  try {
    return new Intl.Locale(locale).maximize().region ?? null;
  } catch {
    return null;
  }
}
