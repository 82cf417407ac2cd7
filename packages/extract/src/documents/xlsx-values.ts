/**
 * What a cell shows, as text, from what the sheet stores: numbers as written, dates (a number
 * with a date format) as ISO dates, booleans as TRUE/FALSE, errors as nothing.
 */

/** 1-based column of a cell reference ("C5" is 3), or null when it does not start with letters. */
export function columnOf(ref: string): number | null {
  let column = 0;
  let i = 0;
  for (; i < ref.length && i < 4; i++) {
    const c = ref.charCodeAt(i) & ~0x20; // upper case
    if (c < 65 || c > 90) break;
    column = column * 26 + (c - 64);
  }
  return i === 0 ? null : column;
}

/** OOXML writes characters XML cannot hold (and "_x" itself) as "_xHHHH_" (ECMA-376 ST_Xstring). */
export function unescapeXstring(text: string): string {
  return text.includes("_x")
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
        String.fromCharCode(parseInt(hex, 16)),
      )
    : text;
}

export function numberText(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1e10) / 1e10);
}

/** The last serial Excel shows as a date: 9999-12-31. */
const MAX_SERIAL = 2_958_465;

/**
 * A date serial as an ISO date ("2024-01-15"), or date and time when it has one. The 1900 system
 * counts 1900-02-29, which never was (Lotus's leap year): serials before it are a day later here.
 * Null when the number is no date Excel would show, so the number is kept.
 */
export function serialDateText(serial: number, date1904: boolean): string | null {
  if (!(serial >= 0 && serial <= MAX_SERIAL)) return null;
  const days = date1904 ? serial + 1_462 : serial >= 1 && serial < 60 ? serial + 1 : serial;
  return isoText(new Date(Math.round((days - 25_569) * 86_400_000)));
}

/** A cell of type "d" holds an ISO 8601 date itself. */
export function isoDateText(text: string): string | null {
  const date = new Date(
    /(Z|[+-]\d\d:?\d\d)$/.test(text) || !text.includes("T") ? text : `${text}Z`,
  );
  return Number.isNaN(date.getTime()) ? null : isoText(date);
}

function isoText(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/**
 * Built-in number formats that are dates or times (ECMA-376 18.8.30; 27-36 and 50-58 are East Asian
 * dates).
 */
const BUILT_IN_DATES = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

export function isDateFormatId(id: number): boolean {
  return BUILT_IN_DATES.has(id);
}

/**
 * A format code that shows a date or time: a y, m, d, h, s (or b, the Buddhist year) outside
 * quoted text, escaped characters and [colour]/[$locale] brackets. "[h]:mm" (elapsed time) counts.
 */
export function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/[_*]./g, "")
    .replace(/\[(h+|m+|s+)\]/gi, "$1")
    .replace(/\[[^\]]*\]/g, "");
  if (/^general$/i.test(bare.trim())) return false;
  return /[ymdhsb]/i.test(bare.replace(/general/gi, ""));
}
