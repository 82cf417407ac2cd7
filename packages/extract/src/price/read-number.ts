/**
 * Reading the digits of a price: which separators group thousands and which one starts the
 * decimals. Prices are written "1.299,00", "1,299.00", "1 299,00", "1'299.00" or "1299", and
 * the separators alone usually decide it; when they do not ("1.299"), the caller says which
 * way to lean.
 */

export interface NumberRun {
  index: number;
  end: number;
  /** Integer digits and decimal digits, without separators. */
  whole: string;
  fraction: string;
}

export interface ReadOptions {
  /** Digits a currency has after the point: a lone "." followed by exactly that many is decimal. */
  minorUnits: number;
  /** The locale's decimal separator, when a locale was given. */
  decimalSeparator: "." | "," | null;
}

const SPACES = /[\s\u00a0\u2009\u202f]/u;
// A digit run with the separators shops put inside numbers; split and judged afterwards.
const RUN = /(?:\d|[.,]\d)(?:[\d.,'’\u00a0\u2009\u202f ]*\d)?/gu;

type Sep = "." | "," | "'" | " ";

interface Groups {
  digits: string[];
  seps: Sep[];
}

/** Splits "1 299,00" into digit groups and the separators between them, stopping where the
 * text stops looking like one number ("69 TL", "2 x 3", two prices side by side). */
function split(raw: string): Groups & { length: number } {
  const digits: string[] = [];
  const seps: Sep[] = [];
  let i = 0;
  let current = "";
  let consumed = 0;
  while (i < raw.length) {
    const ch = raw[i] as string;
    if (/\d/.test(ch)) {
      current += ch;
      i++;
      consumed = i;
      continue;
    }
    // A separator: the run of non-digits up to the next digit.
    let j = i;
    while (j < raw.length && !/\d/.test(raw[j] as string)) j++;
    const between = raw.slice(i, j);
    let next = j;
    while (next < raw.length && /\d/.test(raw[next] as string)) next++;
    const nextLength = next - j;
    const sep = classify(between, nextLength, current.length, digits.length === 0);
    if (!sep) break;
    digits.push(current);
    seps.push(sep);
    current = "";
    i = j;
  }
  digits.push(current);
  return { digits, seps, length: consumed };
}

function classify(
  between: string,
  nextLength: number,
  prevLength: number,
  first: boolean,
): Sep | null {
  const compact = between.replace(/[\s\u00a0\u2009\u202f]/gu, "");
  const spaced = compact.length !== between.length;
  if (compact === "." || compact === ",") {
    // "559. 99": a decimal point that lost its digits to a line break.
    if (spaced && !(nextLength <= 2 && between.startsWith(compact))) return null;
    return compact;
  }
  if (compact === "'" || compact === "’") return "'";
  if (compact === "" && between.length === 1 && SPACES.test(between)) {
    // A space groups thousands only between proper groups: "8 390", not "69 41".
    if (nextLength !== 3 || (first && prevLength > 3)) return null;
    return " ";
  }
  return null;
}

/** Every number in the text, in order, read with the given leanings. */
export function findNumbers(text: string, options: ReadOptions): NumberRun[] {
  const runs: NumberRun[] = [];
  for (const match of text.matchAll(RUN)) {
    let index = match.index ?? 0;
    let raw = match[0];
    // Leading separators: ".75" is a fraction, ",5" too; "..75" only keeps the last one.
    const lead = /^[.,]+/.exec(raw);
    if (lead) {
      index += lead[0].length - 1;
      raw = raw.slice(lead[0].length - 1);
    }
    let offset = 0;
    while (offset < raw.length) {
      const rest = raw.slice(offset);
      const start = /\d|[.,]\d/.exec(rest);
      if (!start) break;
      const from = offset + start.index;
      const piece = raw.slice(from);
      const groups = split(piece.startsWith(".") || piece.startsWith(",") ? `0${piece}` : piece);
      const eaten =
        piece.startsWith(".") || piece.startsWith(",") ? groups.length - 1 : groups.length;
      const value = interpret(groups, options);
      if (value) runs.push({ index: index + from, end: index + from + eaten, ...value });
      offset = from + Math.max(eaten, 1);
    }
  }
  return runs;
}

function interpret(
  { digits, seps }: Groups,
  options: ReadOptions,
): { whole: string; fraction: string } | null {
  if (digits.some((d) => d === "")) return null;
  if (seps.length === 0) return { whole: digits[0] as string, fraction: "" };
  const last = seps[seps.length - 1] as Sep;
  const lastGroup = digits[digits.length - 1] as string;
  const earlier = seps.slice(0, -1);
  let decimal: boolean;
  if (last === "'" || last === " ") decimal = false;
  else if (earlier.some((s) => s !== last))
    decimal = true; // "1.299,00", "1 299,00", "1'049,95"
  else if (earlier.length > 0)
    decimal = false; // "1.299.000"
  else if (lastGroup.length !== 3)
    decimal = true; // "12,50", "29.1583"
  else decimal = leansDecimal(digits[0] as string, last, options);
  const wholeGroups = decimal ? digits.slice(0, -1) : digits;
  return { whole: wholeGroups.join(""), fraction: decimal ? lastGroup : "" };
}

// "1.299" and "1,299": thousands, unless the currency has three decimals (KWD), the whole part
// is zero ("0.750"), or a locale says this sign is its decimal separator.
function leansDecimal(whole: string, sep: "." | ",", options: ReadOptions): boolean {
  if (options.minorUnits === 3) return true;
  if (/^0+$/.test(whole)) return true;
  return options.decimalSeparator === sep;
}
