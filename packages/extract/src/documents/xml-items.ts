import { SaxesParser, type SaxesTagNS } from "saxes";
import { EmptyDocumentError, MalformedDocumentError } from "./document-errors.js";
import { DOCUMENT_LIMITS, overLimit } from "./document-limits.js";

/** One element of an item, by its local name and namespace URI ("" when it has none). */
export interface XmlNode {
  name: string;
  uri: string;
  /** By local name; namespace declarations left out. */
  attributes: Record<string, string>;
  text: string;
  children: XmlNode[];
}

/**
 * What the document is: a WordPress export (WXR), an RSS 2.0 or Atom feed (Google Merchant's
 * among them) or a plain list of products.
 */
export type XmlKind = "wxr" | "rss" | "atom" | "generic";

export type XmlEvent = { kind: XmlKind; root: string } | { n: number; line: number; item: XmlNode };

const ATOM = "http://www.w3.org/2005/Atom";
const WORDPRESS_EXPORT = /^https?:\/\/wordpress\.org\/export\//;

const xmlMessage = (what: string) =>
  `${what}; only XML without a DTD is read here: remove the <!DOCTYPE ...> declaration (feeds and exports do not need one)`;

/**
 * Items of an XML product document, one at a time, parsed by a strict streaming parser (saxes).
 * Only the item being read is held. Refused before anything is expanded or fetched: any DOCTYPE
 * with an internal subset (entity declarations: XXE, billion laughs) or an external DTD
 * (SYSTEM/PUBLIC); saxes itself never expands an entity it was not given, so any other
 * `&name;` is a well-formedness error. Limits: nesting (`depth`), attributes per element
 * (`columns`), text per element (`cellChars`), characters per item (`recordChars`), items
 * (`rows`).
 */
export async function* xmlItems(text: AsyncIterable<string>): AsyncGenerator<XmlEvent> {
  const reader = new ItemReader();
  for await (const chunk of text) {
    reader.write(chunk);
    yield* reader.take();
  }
  reader.close();
  yield* reader.take();
}

class ItemReader {
  private readonly parser = new SaxesParser({ xmlns: true, position: true });
  private readonly out: XmlEvent[] = [];
  private depth = 0;
  private kind: XmlKind | null = null;
  private rootName = "";
  /** Names of the open elements, outermost first. */
  private readonly path: string[] = [];
  /** The item being read and its open elements (innermost last). */
  private open: XmlNode[] = [];
  private itemDepth = 0;
  private itemLine = 0;
  private itemSize = 0;
  private items = 0;
  /**
   * Where saxes last reported a tag or comment (its position while it parses, in characters),
   * and how many characters it was given.
   */
  private lastEvent = 0;
  private written = 0;
  /** Generic lists: the element that items are, and at which depth, once evident. */
  private itemName: string | null = null;
  private genericDepth = 0;
  /** Generic lists: the first child of the root, read whole until it shows what items are. */
  private probing = false;
  /** Generic lists: the first item, held until a second of its name shows it repeats. */
  private pending: XmlEvent | null = null;
  /** Generic lists: the first child of the root that held only text, for the message. */
  private textOnly: { name: string; line: number } | null = null;

  constructor() {
    const p = this.parser;
    p.on("error", (error) => {
      const message = error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, "");
      const hint = /^undefined entity/.test(message)
        ? "an entity such as &nbsp; is not defined in XML: write the character itself, or &amp; for a plain &"
        : /^unclosed|^document must contain/.test(message)
          ? "is the file cut short?"
          : "check the file with an XML validator";
      throw new MalformedDocumentError(
        `the XML is not well-formed at line ${p.line}, column ${p.column}: ${message}; ${hint}`,
      );
    });
    p.on("doctype", (doctype) => {
      if (/\[/.test(doctype))
        throw new MalformedDocumentError(
          xmlMessage(
            `the XML declares entities or other definitions in its DOCTYPE (line ${p.line}), which are refused: they can read files or expand without end`,
          ),
        );
      if (/\b(SYSTEM|PUBLIC)\b/.test(doctype))
        throw new MalformedDocumentError(
          xmlMessage(
            `the XML names an external DTD in its DOCTYPE (line ${p.line}), which is never fetched`,
          ),
        );
    });
    p.on("opentag", (tag) => {
      this.lastEvent = p.position;
      this.opened(tag);
    });
    p.on("closetag", () => {
      this.lastEvent = p.position;
      this.closed();
    });
    p.on("text", (t) => this.textOf(t));
    p.on("cdata", (t) => this.textOf(t));
    p.on("comment", () => {
      this.lastEvent = p.position;
    });
  }

  write(chunk: string): void {
    this.parser.write(chunk);
    // saxes hands text on only at the next tag: a text node (or comment, or CDATA section) that
    // never ends would grow in its buffer. Counted here, refused past twice the cell limit.
    this.written += chunk.length;
    if (this.written - this.lastEvent > 2 * DOCUMENT_LIMITS.cellChars)
      throw overLimit.cellChars(`${this.where()} (after line ${this.parser.line})`);
  }

  close(): void {
    this.parser.close();
    this.flushPending();
    if (this.items === 0 && this.textOnly)
      throw new MalformedDocumentError(
        `expected the root element <${this.rootName}> to hold one element per product (such as <product>) with the product's fields inside it, ` +
          `but its first child <${this.textOnly.name}> holds only text (line ${this.textOnly.line}) and no child holds elements; ` +
          "an RSS or Atom feed, a WordPress export, or a list of products can be read",
      );
    if (this.kind === null)
      throw new EmptyDocumentError("the XML file has no elements; it should list one per product");
    if (this.items === 0)
      throw new EmptyDocumentError(
        this.kind === "rss"
          ? "the feed has no <item> elements; it should hold one per product"
          : this.kind === "atom"
            ? "the feed has no <entry> elements; it should hold one per product"
            : this.kind === "wxr"
              ? "the WordPress export has no <item> elements"
              : `the root element <${this.rootName}> holds no product elements; it should hold one repeated element per product, such as <product>`,
      );
  }

  take(): XmlEvent[] {
    return this.out.splice(0);
  }

  private where(): string {
    return this.itemDepth > 0 ? `item ${this.items}` : `line ${this.parser.line}`;
  }

  private opened(tag: SaxesTagNS): void {
    this.depth++;
    const name = tag.local;
    if (this.depth > DOCUMENT_LIMITS.depth)
      throw overLimit.xmlDepth(`line ${this.parser.line} (element <${tag.name}>)`);
    const attributes: Record<string, string> = {};
    let count = 0;
    for (const attr of Object.values(tag.attributes)) {
      if (attr.prefix === "xmlns" || attr.name === "xmlns") continue;
      if (++count > DOCUMENT_LIMITS.columns)
        throw overLimit.xmlAttributes(`line ${this.parser.line} (element <${tag.name}>)`);
      attributes[attr.local] = attr.value;
      this.grow(attr.local.length + attr.value.length);
    }
    const node: XmlNode = { name, uri: tag.uri, attributes, text: "", children: [] };
    if (this.depth === 1) {
      this.rootName = name;
      this.kind = rootKind(tag);
      this.out.push({ kind: this.kind, root: name });
    } else if (this.probing && this.depth === 3 && this.wrapsItems(name)) {
      this.startItem();
    } else if (this.open.length > 0) {
      this.open.at(-1)!.children.push(node);
      this.grow(name.length + 1);
    } else if (this.startsItem(name)) {
      this.startItem();
    }
    if (this.itemDepth > 0) this.open.push(node);
    this.path.push(name);
  }

  /** Is this element (outside any item) one of the items? */
  private startsItem(name: string): boolean {
    const parent = this.path.at(-1);
    switch (this.kind) {
      case "rss":
      case "wxr":
        return this.depth === 3 && name === "item" && parent === "channel";
      case "atom":
        return this.depth === 2 && name === "entry";
      default:
        if (this.depth !== 2) return this.depth === this.genericDepth && name === this.itemName;
        if (this.genericDepth === 2 && name === this.itemName) {
          this.flushPending();
          return true;
        }
        // Not yet evident, or the one element read so far was a header (`<info>`) before the
        // repeated ones: this child is read to see.
        if (this.itemName === null || this.pending) {
          if (this.pending) {
            this.pending = null;
            this.items--;
          }
          this.probing = true;
          return true;
        }
        return false;
    }
  }

  /**
   * While the root's first child is read: a second child named as its first, both holding
   * elements, shows that the first child wraps the items (`<catalog><items><item>`): the first
   * is item 1 and this one starts item 2.
   */
  private wrapsItems(name: string): boolean {
    const wrapper = this.open[0]!;
    const first = wrapper.children[0];
    if (wrapper.children.length !== 1 || first?.name !== name || first.children.length === 0)
      return false;
    this.probing = false;
    this.itemName = name;
    this.genericDepth = 3;
    this.out.push({ n: this.items, line: this.itemLine, item: first });
    return true;
  }

  private flushPending(): void {
    if (this.pending) this.out.push(this.pending);
    this.pending = null;
  }

  private startItem(): void {
    this.open = [];
    this.itemDepth = this.depth;
    this.itemLine = this.parser.line;
    this.itemSize = 0;
    if (++this.items > DOCUMENT_LIMITS.rows) throw overLimit.rows();
  }

  private closed(): void {
    this.depth--;
    this.path.pop();
    if (this.itemDepth === 0) return;
    const node = this.open.pop()!;
    node.text = node.text.trim();
    if (this.depth >= this.itemDepth) return;
    this.itemDepth = 0;
    if (this.probing) {
      this.probing = false;
      this.items--;
      if (node.children.length === 0) {
        this.textOnly ??= { name: node.name, line: this.itemLine };
        this.itemName = null;
        return;
      }
      this.items++;
      this.itemName = node.name;
      this.genericDepth = 2;
      this.pending = { n: this.items, line: this.itemLine, item: node };
      return;
    }
    this.out.push({ n: this.items, line: this.itemLine, item: node });
  }

  private textOf(text: string): void {
    const node = this.open.at(-1);
    if (!node) return;
    if (node.text.length + text.length > DOCUMENT_LIMITS.cellChars)
      throw overLimit.cellChars(`${this.where()} (element <${node.name}>)`);
    node.text += text;
    this.grow(text.length);
  }

  private grow(n: number): void {
    if (this.itemDepth === 0) return;
    this.itemSize += n;
    if (this.itemSize > DOCUMENT_LIMITS.recordChars) throw overLimit.recordChars(this.where());
  }
}

function rootKind(tag: SaxesTagNS): XmlKind {
  const namespaces = Object.values(tag.ns ?? {});
  if (tag.local === "rss")
    return namespaces.some((uri) => WORDPRESS_EXPORT.test(uri)) ? "wxr" : "rss";
  if (tag.local === "feed" && (tag.uri === ATOM || tag.uri === "")) return "atom";
  return "generic";
}
