import Assembler from "stream-json/assembler.js";
import { jsonParser, type Token } from "stream-json/parser.js";
import { isRecord } from "./cell-values.js";
import { normaliseName } from "./column-names.js";
import { MalformedDocumentError } from "./document-errors.js";

/** `{"products": [...]}`, our API's `{"items": [...]}` and similar wrappers are read like a bare array. */
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
  const tokenize = jsonParser({ packValues: true, streamValues: false }) as unknown as (input: string | symbol) => unknown;
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
    if (input === END_OF_INPUT) throw new MalformedDocumentError("the JSON ends before its array or object is closed (is the file cut short?)");
    const message = error instanceof Error ? error.message : String(error);
    throw new MalformedDocumentError(`the file is not valid JSON (${message.replace(/^Parser cannot parse input: /, "")}); check it with a JSON validator`);
  }
  return isRecord(out) && Array.isArray(out.values) ? (out.values as Token[]) : [];
}

class ItemCollector {
  private started = false;
  private inItems = false;
  private item: Assembler | null = null;
  private root: Assembler | null = null;
  private wrapperKey = false;
  private wrapped = false;

  feed(tokens: Token[]): unknown[] {
    const done: unknown[] = [];
    for (const token of tokens) {
      if (this.item) {
        this.item.consume(token);
        if (this.item.done) { done.push(this.item.current); this.item = null; }
        continue;
      }
      if (this.inItems) {
        if (token.name === "endArray") { this.inItems = false; continue; }
        const item = new Assembler({ numberAsString: true });
        item.consume(token);
        if (item.done) done.push(item.current);
        else this.item = item;
        continue;
      }
      if (!this.started) {
        this.started = true;
        if (token.name === "startArray") { this.inItems = true; continue; }
        if (token.name !== "startObject") throw new MalformedDocumentError(`expected a JSON array of product objects, found ${describe(token)} at the top level`);
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
      if (!this.wrapped && root.depth === 1 && token.name === "keyValue" && WRAPPER_KEYS.has(normaliseName(token.value))) this.wrapperKey = true;
      root.consume(token);
    }
    return done;
  }

  end(): unknown[] {
    if (!this.started) throw new MalformedDocumentError("the file holds no JSON value; it should be an array of product objects");
    if (this.inItems || this.item || (this.root && !this.root.done)) {
      throw new MalformedDocumentError("the JSON ends before its array or object is closed (is the file cut short?)");
    }
    return this.root && !this.wrapped && this.root.done ? [this.root.current] : [];
  }
}

function describe(token: Token): string {
  switch (token.name) {
    case "stringValue": return "a string";
    case "numberValue": return "a number";
    case "trueValue": case "falseValue": return "a boolean";
    case "nullValue": return "null";
    default: return token.name;
  }
}

/** NDJSON: one JSON value per line; a line that does not parse is reported, not fatal. */
export async function* ndjsonLines(text: AsyncIterable<string>): AsyncGenerator<{ line: number; value: unknown } | { line: number; error: string }> {
  let buffer = "";
  let line = 0;
  const take = (raw: string) => {
    line++;
    const trimmed = raw.trim();
    if (trimmed === "") return null;
    try {
      return { line, value: JSON.parse(trimmed) as unknown };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { line, error: `line ${line}: not valid JSON (${message})` };
    }
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
  }
  const last = take(buffer);
  if (last) yield last;
}
