import Assembler from "stream-json/assembler.js";
import { jsonParser, type Token } from "stream-json/parser.js";
import { isRecord } from "./cell-values.js";
import { normaliseName } from "./column-names.js";
import { MalformedDocumentError } from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";

/**
 * `{"products": [...]}`, our API's `{"items": [...]}` and similar wrappers are read like a bare
 * array.
 */
const WRAPPER_KEYS = new Set(["products", "items", "data", "results", "records", "rows"]);
/** stream-chain's end-of-input marker: the tokenizer flushes what it holds when given it. */
const END_OF_INPUT = Symbol.for("object-stream.none");

/**
 * Items of a JSON array, one at a time: only the item being read is held, so a 100,000-item
 * array never exists in memory whole. A top-level object is either a wrapper around the array
 * (the first products/items/data key holding an array) or a single product.
 *
 * stream-json's bare tokenizer is called directly, chunk by chunk: its Node stream wrapper
 * costs an async step per token, several times the parse itself.
 */
export async function* jsonItems(text: AsyncIterable<string>): AsyncGenerator<unknown> {
  const tokenize = jsonParser({ packValues: true, streamValues: false }) as unknown as (
    input: string | symbol,
  ) => unknown;
  const items = new ItemCollector();
  for await (const chunk of text) yield* items.feed(tokensOf(tokenize, chunk));
  yield* items.feed(tokensOf(tokenize, END_OF_INPUT));
  yield* items.end();
}

function tokensOf(tokenize: (input: string | symbol) => unknown, input: string | symbol): Token[] {
  let out: unknown;
  try {
    out = tokenize(input);
  } catch (error) {
    if (input === END_OF_INPUT)
      throw new MalformedDocumentError(
        "the JSON ends before its array or object is closed (is the file cut short?)",
      );
    const message = error instanceof Error ? error.message : String(error);
    throw new MalformedDocumentError(
      `the file is not valid JSON (${message.replace(/^Parser cannot parse input: /, "")}); check it with a JSON validator`,
    );
  }
  return isRecord(out) && Array.isArray(out.values) ? (out.values as Token[]) : [];
}

/**
 * Counts what the limits bound (document-limits.ts) as tokens pass: nesting, keys per object,
 * string length, and the size of the item being read (its strings plus one per token).
 */
class LimitCheck {
  private depth = 0;
  /** Keys seen in each open object; -1 for an open array. */
  private readonly keys: number[] = [];
  private size = 0;
  where = "the top-level value";

  startItem(n: number): void {
    this.where = `item ${n}`;
    this.size = 0;
  }

  check(token: Token): void {
    const value = "value" in token && typeof token.value === "string" ? token.value : "";
    if (value.length > DOCUMENT_LIMITS.cellChars) throw overLimit.cellChars(this.where);
    this.size += value.length + 1;
    if (this.size > DOCUMENT_LIMITS.recordChars) throw overLimit.recordChars(this.where);
    switch (token.name) {
      case "startObject":
      case "startArray":
        if (++this.depth > DOCUMENT_LIMITS.depth) throw overLimit.depth(this.where);
        this.keys.push(token.name === "startObject" ? 0 : -1);
        break;
      case "endObject":
      case "endArray":
        this.depth--;
        this.keys.pop();
        break;
      case "keyValue": {
        const top = this.keys.length - 1;
        if (++this.keys[top]! > DOCUMENT_LIMITS.columns)
          throw overLimit.columns(this.where, "keys");
        break;
      }
    }
  }
}

class ItemCollector {
  private readonly limits = new LimitCheck();
  private items = 0;
  private started = false;
  private inItems = false;
  private item: Assembler | null = null;
  private root: Assembler | null = null;
  private wrapperKey = false;
  private wrapped = false;

  feed(tokens: Token[]): unknown[] {
    const done: unknown[] = [];
    for (const token of tokens) {
      if (this.inItems && !this.item && token.name !== "endArray")
        this.limits.startItem(++this.items);
      this.limits.check(token);
      if (this.item) {
        this.item.consume(token);
        if (this.item.done) {
          done.push(this.item.current);
          this.item = null;
        }
        continue;
      }
      if (this.inItems) {
        if (token.name === "endArray") {
          this.inItems = false;
          continue;
        }
        const item = new Assembler({ numberAsString: true });
        item.consume(token);
        if (item.done) done.push(item.current);
        else this.item = item;
        continue;
      }
      if (!this.started) {
        this.started = true;
        if (token.name === "startArray") {
          this.inItems = true;
          continue;
        }
        if (token.name !== "startObject")
          throw new MalformedDocumentError(
            `expected a JSON array of product objects, found ${describe(token)} at the top level`,
          );
        this.root = new Assembler({ numberAsString: true });
      }
      const root = this.root;
      if (!root) continue;
      if (this.wrapperKey) {
        this.wrapperKey = false;
        if (token.name === "startArray") {
          this.wrapped = true;
          this.inItems = true;
          root.consume({ name: "nullValue", value: null });
          continue;
        }
      }
      if (
        !this.wrapped &&
        root.depth === 1 &&
        token.name === "keyValue" &&
        WRAPPER_KEYS.has(normaliseName(token.value))
      )
        this.wrapperKey = true;
      root.consume(token);
    }
    return done;
  }

  end(): unknown[] {
    if (!this.started)
      throw new MalformedDocumentError(
        "the file holds no JSON value; it should be an array of product objects",
      );
    if (this.inItems || this.item || (this.root && !this.root.done)) {
      throw new MalformedDocumentError(
        "the JSON ends before its array or object is closed (is the file cut short?)",
      );
    }
    return this.root && !this.wrapped && this.root.done ? [this.root.current] : [];
  }
}

function describe(token: Token): string {
  switch (token.name) {
    case "stringValue":
      return "a string";
    case "numberValue":
      return "a number";
    case "trueValue":
    case "falseValue":
      return "a boolean";
    case "nullValue":
      return "null";
    default:
      return token.name;
  }
}

/**
 * NDJSON: one JSON value per line; a line that does not parse is reported, not fatal. A line
 * past a limit is fatal, as in every other format: it is checked before it is parsed (length,
 * nesting) or just after (keys, strings), so it never reaches code that recurses.
 */
export async function* ndjsonLines(
  text: AsyncIterable<string>,
): AsyncGenerator<{ line: number; value: unknown } | { line: number; error: string }> {
  let buffer = "";
  let line = 0;
  const take = (raw: string) => {
    line++;
    const trimmed = raw.trim();
    if (trimmed === "") return null;
    const where = `line ${line}`;
    if (trimmed.length > DOCUMENT_LIMITS.recordChars) throw overLimit.recordChars(where);
    if (nestingDepth(trimmed) > DOCUMENT_LIMITS.depth) throw overLimit.depth(where);
    let value: unknown;
    try {
      value = JSON.parse(trimmed) as unknown;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { line, error: `line ${line}: not valid JSON (${message})` };
    }
    checkValue(value, where);
    return { line, value };
  };
  for await (const chunk of text) {
    let start = 0;
    buffer += chunk;
    let newline = buffer.indexOf("\n", buffer.length - chunk.length);
    while (newline >= 0) {
      const result = take(buffer.slice(start, newline));
      if (result) yield result;
      start = newline + 1;
      newline = buffer.indexOf("\n", start);
    }
    buffer = buffer.slice(start);
    if (buffer.length > DOCUMENT_LIMITS.recordChars)
      throw overLimit.recordChars(`line ${line + 1}`);
  }
  const last = take(buffer);
  if (last) yield last;
}

/** How deep arrays and objects nest in JSON text (brackets inside strings do not count). */
function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/**
 * Keys per object and string lengths of a parsed value whose nesting is already known to be
 * bounded.
 */
function checkValue(value: unknown, where: string): void {
  if (typeof value === "string") {
    if (value.length > DOCUMENT_LIMITS.cellChars) throw overLimit.cellChars(where);
  } else if (Array.isArray(value)) {
    for (const item of value) checkValue(item, where);
  } else if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length > DOCUMENT_LIMITS.columns) throw overLimit.columns(where, "keys");
    for (const key of keys) {
      if (key.length > DOCUMENT_LIMITS.cellChars) throw overLimit.cellChars(where);
      checkValue(value[key], where);
    }
  }
}
