import { load } from "cheerio/slim";
import { parseDocument, Tokenizer } from "htmlparser2";
import type { CheerioAPI } from "./dom.js";

/**
 * Parses a page the way `load` from cheerio/slim does (htmlparser2, entities decoded), with a
 * tokenizer that gives the same DOM faster. htmlparser2's tokenizer, when it decodes entities,
 * looks at every character of text and of attribute values through its state machine, only to
 * find the next `<` (or closing quote) or `&`; and it skips script, style and comment bodies one
 * character at a time. On the corpus (pages of 660 KB on average) that was most of the parse,
 * the largest part of extraction. This one jumps to those characters with `indexOf` instead:
 * the characters skipped are the ones the stock states would have passed over without a change
 * of state or a callback, so the tokens, and the DOM, are the same (test/html-parse.test.ts
 * compares the two on the corpus and on edge cases).
 *
 * It relies on the tokenizer's internals (htmlparser2 10.1.0, pinned exactly in package.json):
 * the fields and methods named in `TokenizerInternals`. If an upgrade renames them, this file
 * throws when loaded rather than parse differently.
 */
export function parseHtml(html: string): CheerioAPI {
  // cheerio/slim's own load runs this same parseDocument, with the stock tokenizer.
  return load(parseDocument(html, { Tokenizer: FastTokenizer }));
}

/** The parts of htmlparser2's Tokenizer (private in its types) that the fast paths use. */
interface TokenizerInternals {
  buffer: string;
  index: number;
  offset: number;
  decodeEntities: boolean;
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
  fastForwardTo(c: number): boolean;
}

const AMP = 0x26; // &
const LT = 0x3c; // <
const DOUBLE_QUOTE = 0x22;

class FastTokenizer extends Tokenizer {
  /** The last search for "&": in `ampBuffer`, from `ampFrom`, found at `ampAt` (or its end). */
  ampBuffer = "";
  ampFrom = 0;
  ampAt = -1;
}

const stock = Tokenizer.prototype as unknown as TokenizerInternals;
for (const method of ["stateText", "handleInAttributeValue", "fastForwardTo"] as const) {
  if (typeof stock[method] !== "function")
    throw new Error(`htmlparser2's Tokenizer has no ${method}: parse-html.ts needs updating`);
}
const fast = FastTokenizer.prototype as unknown as TokenizerInternals;
/** A FastTokenizer as its methods see it. */
type Fast = TokenizerInternals & Pick<FastTokenizer, "ampBuffer" | "ampFrom" | "ampAt">;

/**
 * Where in the buffer the next "&" at or after `from` is (the buffer's length when none). A
 * page without one would otherwise be searched to its end from every text and attribute value,
 * so the answer is kept until the tokenizer passes it.
 */
function nextAmp(t: Fast, from: number): number {
  if (t.ampBuffer !== t.buffer || from < t.ampFrom || from > t.ampAt) {
    const at = t.buffer.indexOf("&", from);
    t.ampBuffer = t.buffer;
    t.ampFrom = from;
    t.ampAt = at === -1 ? t.buffer.length : at;
  }
  return t.ampAt;
}

/**
 * Moves the tokenizer to just before buffer position `stop` (the main loop then steps onto it),
 * or to the last character of the buffer when `stop` is its end.
 */
function skipTo(t: Fast, stop: number): void {
  t.index = stop + t.offset - 1;
}

// Text: only "<" (a tag) and "&" (an entity) change anything.
fast.stateText = function (this: Fast, c: number): void {
  if (c === LT || c === AMP || !this.decodeEntities) {
    stock.stateText.call(this, c);
    return;
  }
  const from = this.index + 1 - this.offset;
  let lt = this.buffer.indexOf("<", from);
  if (lt === -1) lt = this.buffer.length;
  skipTo(this, Math.min(lt, nextAmp(this, from)));
};

// A quoted attribute value: only its closing quote and "&" change anything.
fast.handleInAttributeValue = function (this: Fast, c: number, quote: number): void {
  if (c === quote || c === AMP || !this.decodeEntities) {
    stock.handleInAttributeValue.call(this, c, quote);
    return;
  }
  const from = this.index + 1 - this.offset;
  let end = this.buffer.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", from);
  if (end === -1) end = this.buffer.length;
  skipTo(this, Math.min(end, nextAmp(this, from)));
};

// The stock loop compares one character at a time (script and style bodies, comments).
fast.fastForwardTo = function (this: Fast, c: number): boolean {
  const at = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
  if (at !== -1) {
    this.index = at + this.offset;
    return true;
  }
  this.index = this.buffer.length + this.offset - 1;
  return false;
};
