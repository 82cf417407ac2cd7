/** Where a value holds text PostgreSQL cannot take, and why. */
export interface UnstorableText {
  /**
   * The field: object keys and array indexes from the top-level value (empty for the value itself).
   */
  path: (string | number)[];
  /**
   * What is wrong, to follow the field's name: "contains a NUL character (U+0000), which cannot be
   * stored".
   */
  problem: string;
}

// In a `u` regex a surrogate pair is one code point, so \p{Cs} matches only a lone surrogate. NUL
// is meant: built from a string, as a regex literal naming a control character reads as a slip.
const UNSTORABLE = new RegExp(String.raw`\u0000|\p{Cs}`, "u");

function problemIn(text: string): string | null {
  // Nearly every text is fine: two native scans say so, about ten times faster than the regex.
  if (text.isWellFormed() && !text.includes("\u0000")) return null;
  const found = UNSTORABLE.exec(text)?.[0];
  if (found === undefined) return null;
  if (found === "\u0000") return "contains a NUL character (U+0000), which cannot be stored";
  const code = found.charCodeAt(0).toString(16).toUpperCase();
  return `contains a lone surrogate (U+${code}), which is not valid Unicode text and cannot be stored`;
}

/** `text` with its unstorable characters escaped, so it can be named in a message. */
const shown = (text: string) =>
  text.replace(
    new RegExp(UNSTORABLE.source, "gu"),
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/**
 * The first string (a value or an object key) that PostgreSQL cannot store, or null. It stores
 * NUL in neither text nor jsonb (and a search for one fails, 22021); a lone UTF-16 surrogate
 * (JSON's `"\udc00"`) is refused in jsonb (22P02) and silently replaced by U+FFFD in text. Such
 * input is refused before it gets there. Recursive: run it only on values `pathTooDeep` has passed.
 */
export function unstorableText(value: unknown): UnstorableText | null {
  const found = unstorableIn(value);
  return found && { path: found.path.reverse(), problem: found.problem };
}

/**
 * unstorableText without a path on the way down: the one found is built on the way back up,
 * leaf first.
 */
function unstorableIn(value: unknown): UnstorableText | null {
  if (typeof value === "string") {
    const problem = problemIn(value);
    return problem ? { path: [], problem } : null;
  }
  if (typeof value !== "object" || value === null) return null;
  // Arrays by index, without the key iterator: this runs on every string of every imported row.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableIn(value[i]);
      if (found) {
        found.path.push(i);
        return found;
      }
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const problem = problemIn(key);
    if (problem) return { path: [shown(key)], problem };
    const found = unstorableIn((value as Record<string, unknown>)[key]);
    if (found) {
      found.path.push(key);
      return found;
    }
  }
  return null;
}
