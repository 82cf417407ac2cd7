import { MAX_JSON_DEPTH, pathTooDeep } from "@catalog/values";

/**
 * JSON as shops write it into pages: comments, trailing commas, raw line breaks inside strings,
 * several objects one after another, an HTML comment or CDATA wrapper. Returns the values that
 * could be read; never throws. A value nested deeper than MAX_JSON_DEPTH is dropped as unreadable:
 * everything after this walks it recursively, and no real markup nests so deep.
 */
export function parseLenientJson(source: string): unknown[] {
  const text = source
    .trim()
    .replace(/^<!--|-->$/g, "")
    .replace(/^\s*\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>\s*$/g, "")
    .replace(/^<!\[CDATA\[|\]\]>$/g, "")
    .trim();
  if (text === "") return [];
  const strict = tryParse(text);
  if (strict.ok) return [strict.value];
  const repaired = repair(text);
  const second = tryParse(repaired);
  if (second.ok) return [second.value];
  return splitTopLevel(repaired).flatMap((part) => {
    const parsed = tryParse(part);
    return parsed.ok ? [parsed.value] : [];
  });
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  return pathTooDeep(value, MAX_JSON_DEPTH) ? { ok: false } : { ok: true, value };
}

/** Drops comments and trailing commas and escapes raw control characters, outside of and
 * inside strings respectively, in one pass that knows where strings are. */
function repair(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      if (ch === "\\") {
        const next = text[i + 1] ?? "";
        // An escape JSON does not know ("\'", "\/" is fine) loses its backslash.
        out += /["\\/bfnrtu]/.test(next) ? ch + next : next;
        i++;
      } else if (ch === '"') {
        inString = false;
        out += ch;
      } else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (ch < " ") out += " ";
      else out += ch;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (ch === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      if (text[j] !== "}" && text[j] !== "]") out += ch;
    } else out += ch;
  }
  return out;
}

/** "{...}{...}" or "{...},\n{...}": the balanced top-level values, each on its own. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0 && start >= 0) {
        parts.push(text.slice(start, i + 1));
        start = -1;
      }
      if (depth < 0) depth = 0;
    }
  }
  // An unclosed last object: close it, so a truncated block still gives what it has.
  if (depth > 0 && start >= 0) parts.push(text.slice(start) + "}".repeat(depth));
  return parts;
}

/** The JSON object literal that starts at the first "{" after `from`, by balanced braces. */
export function objectLiteralAt(text: string, from: number): string | null {
  const start = text.indexOf("{", from);
  if (start < 0) return null;
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}
