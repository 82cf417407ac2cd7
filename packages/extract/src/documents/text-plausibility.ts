/**
 * How much a decoded text reads like words, for choosing between code pages that all decode a
 * file without error. Bytes read in the wrong single-byte code page still make characters, but
 * not words: symbols inside words ("Ð§Ð°Ð¹"), accented letters outnumbering plain ones
 * ("ÐºÐ¾"), scripts mixed in one word, upper case after lower case inside a word ("зБКМХЙ"
 * for windows-1251 read as KOI8-R). Each letter beyond ASCII in a word without such a fault
 * counts one; each fault costs three. Plain ASCII scores nothing either way.
 */
export function readability(text: string): number {
  let good = 0;
  let bad = 0;
  for (const _ of text.matchAll(SYMBOL_IN_WORD)) bad++;
  for (const [word] of text.matchAll(WORD)) {
    let beyond = 0;
    let plain = 0;
    let lowerSeen = false;
    let caseFlip = false;
    const scripts = new Set<Script>();
    for (const char of word) {
      const code = char.codePointAt(0)!;
      if (code < 0x80) plain++;
      else beyond++;
      // Combining marks (U+0300-036F) belong to the letter before them.
      if (code < 0x300 || code >= 0x370) scripts.add(scriptOf(code));
      const upper = char !== char.toLowerCase();
      if (upper && lowerSeen) caseFlip = true;
      if (char !== char.toUpperCase()) lowerSeen = true;
    }
    if (beyond === 0) continue;
    const mixed =
      scripts.size > 2 ||
      (scripts.size === 2 &&
        !(scripts.has("latin") && (scripts.has("cjk") || scripts.has("hangul"))));
    const latinOnly = scripts.size === 1 && scripts.has("latin");
    if (mixed || caseFlip || (latinOnly && beyond * 2 > word.length + 1 && beyond > plain)) bad++;
    else good += beyond;
  }
  return good - 3 * bad;
}

const WORD = /[\p{L}\p{M}]+/gu;
// A character beyond ASCII that is neither a letter nor a mark, between two letters; apostrophes,
// dashes, soft hyphens and the Catalan middle dot ("l·l") do stand there in real words.
const SYMBOL_IN_WORD =
  /(?<=\p{L})[^\p{L}\p{M}\s\p{ASCII}\u2019\u2010-\u2015\u00ad\u00b7](?=\p{L})/gu;

type Script =
  "latin" | "greek" | "cyrillic" | "hebrew" | "arabic" | "thai" | "cjk" | "hangul" | "other";

function scriptOf(code: number): Script {
  if (code < 0x250 || (code >= 0x1e00 && code < 0x1f00)) return "latin";
  if (code >= 0x370 && code < 0x400) return "greek";
  if (code >= 0x400 && code < 0x530) return "cyrillic";
  if (code >= 0x590 && code < 0x600) return "hebrew";
  if (code >= 0x600 && code < 0x700) return "arabic";
  if (code >= 0xe00 && code < 0xe80) return "thai";
  if (
    (code >= 0xac00 && code < 0xd7b0) ||
    (code >= 0x1100 && code < 0x1200) ||
    (code >= 0x3130 && code < 0x3190)
  )
    return "hangul";
  if (
    (code >= 0x3040 && code < 0x3100) ||
    (code >= 0x3400 && code < 0xa000) ||
    (code >= 0xf900 && code < 0xfb00) ||
    (code >= 0xff00 && code < 0xfff0)
  )
    return "cjk";
  return "other";
}
